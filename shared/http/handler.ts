import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { NotFoundError, ValidationError } from '../errors';
import { maxJsonBodyBytes } from './body-limits';
import { authenticate, countMalformed, countRouteLimits, type Caller } from './authenticate';
import { edgeCacheControl, edgeCachePolicies } from './edge-cache';
import { dataResponse, errorResponse, jsonHeaders, type HttpResponse } from './error-mapper';
import type { OperationRequest, OperationResult, OperationsOf, RequestMeta } from './operation';
import { routeKeyOf, type FunctionGroup, type RouteDefinition } from './route';
import type { OperationId, Routes } from './routes';
import { validateRequest } from './validate';

type Event = APIGatewayProxyEventV2;
type RoutedRoute = RouteDefinition & { operationId: OperationId };

interface RequestState {
  route: RoutedRoute;
  meta: RequestMeta;
  caller?: Caller;
  input?: { body: unknown; query: unknown; params: unknown };
}

/** Per-request state rides on the Lambda context, the one object middy hands both middlewares and the handler. */
type StatefulContext = Context & { requestState?: RequestState };
type Request = middy.Request<Event, APIGatewayProxyResultV2, Error, StatefulContext>;

const metaOf = (event: Event): RequestMeta => ({
  requestId: event.requestContext?.requestId ?? 'unknown',
  ip: event.requestContext?.http?.sourceIp ?? 'unknown',
  userAgent: event.headers?.['user-agent'],
  origin: event.headers?.origin,
  referer: event.headers?.referer,
  headers: event.headers ?? {},
});

const stateOf = (context: StatefulContext): RequestState => {
  if (!context.requestState) throw new Error('request state missing: resolveRoute must run first');
  return context.requestState;
};

/** Finds the route from API Gateway's route key; a key this group does not serve is 404. */
const resolveRoute = (routes: Map<string, RoutedRoute>): middy.MiddlewareObj<Event> => ({
  before: (request) => {
    const meta = metaOf(request.event);
    const route = routes.get(request.event.routeKey);
    if (route) (request.context as StatefulContext).requestState = { route, meta };
    if (!route) throw new NotFoundError('Route');
  },
});

/** What caches may do with an answer of this route: never hold it (`noStore`), or the edge's rule for its status (`edgeCache`). */
const cachingOf = (route: RouteDefinition | undefined, status: number): Record<string, string> => {
  if (route?.noStore) return { 'Cache-Control': 'no-store' };
  return route?.edgeCache ? { 'Cache-Control': edgeCacheControl(edgeCachePolicies[route.edgeCache], status) } : {};
};

/**
 * Every response, success or error, carries the request id that its log lines carry, and the
 * caching its route allows: on an edge-cached route an error too, so a 401 is shared no longer
 * than a success and a failure not at all.
 */
const errorEnvelope = (): middy.MiddlewareObj<Event, APIGatewayProxyResultV2> => {
  const withRequestId = (request: Request) => {
    const response = request.response as HttpResponse | undefined;
    if (response) response.headers = { ...response.headers, ...cachingOf(request.context.requestState?.route, response.statusCode), 'X-Request-Id': metaOf(request.event).requestId };
  };
  return {
    after: (request) => withRequestId(request as Request),
    onError: (request) => {
      request.response = errorResponse(request.error, metaOf(request.event).requestId);
      withRequestId(request as Request);
    },
  };
};

/** Bodies are JSON whatever Content-Type says (`curl -d` sends form encoding); the option exists in the middleware but not its typings. */
const bodyParser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);

/** Counts a request refused as malformed against its own bound (authenticate.ts countMalformed), then refuses it. */
const malformed = async (state: RequestState, refusal: unknown): Promise<never> => {
  await countMalformed(state.route, state.meta);
  throw refusal;
};

/** Parses JSON only for routes that take a body (or an API key in it); others ignore it. */
const jsonBody = (): middy.MiddlewareObj<Event> => ({
  before: async (request) => {
    const state = stateOf(request.context as StatefulContext);
    const { route } = state;
    const takesBody = route.request?.body !== undefined || (route.auth.kind === 'apiKey' && route.auth.in === 'body');
    if (!takesBody) return;
    if (!request.event.body) request.event.body = '{}';
    // Refused before parsing, so no body can make a handler parse megabytes (body-limits.ts).
    const bytes = request.event.isBase64Encoded ? Math.floor((request.event.body.length * 3) / 4) : Buffer.byteLength(request.event.body);
    if (bytes > maxJsonBodyBytes) await malformed(state, new ValidationError({ body: `Body must be at most ${maxJsonBodyBytes} bytes of JSON` }, 'Request body too large'));
    await Promise.resolve(bodyParser.before?.(request as never)).catch((refusal: unknown) => malformed(state, refusal));
  },
});

const authenticateCaller = (): middy.MiddlewareObj<Event> => ({
  before: async (request) => {
    const state = stateOf(request.context as StatefulContext);
    state.caller = await authenticate(state.route, request.event, state.meta);
  },
});

/**
 * Validates, then counts the route's own limits: only a well-formed request spends them; a
 * malformed one counts against the malformed bound instead.
 */
const validate = (): middy.MiddlewareObj<Event> => ({
  before: async (request) => {
    const state = stateOf(request.context as StatefulContext);
    try {
      state.input = validateRequest(state.route, request.event);
    } catch (refusal) {
      await malformed(state, refusal);
    }
    await countRouteLimits(state.route, state.caller, state.meta, request.event);
  },
});

/** Every route of group G: the route modules a handler passes must hold them all. */
type GroupRoutes<G extends FunctionGroup> = { [K in OperationId as Routes[K]['group'] extends G ? K : never]: Routes[K] };

/**
 * One Lambda handler per function group: parse, authenticate and authorise, validate, count the
 * route's own limits, call the operation (one domain function), map its result to the envelope. The handler gets
 * only its group's routes (a route module whose routes span groups exports one object per group),
 * not the whole table, so a bundle builds no other group's request schemas on a cold start.
 */
export const createGroupHandler = <G extends FunctionGroup>(group: G, routes: GroupRoutes<G>, operations: OperationsOf<G>) => {
  const served = new Map(
    Object.entries(routes as Record<string, RouteDefinition>)
      .filter(([, route]) => route.group === group)
      .map(([operationId, route]) => [routeKeyOf(route), { ...route, operationId } as RoutedRoute]),
  );
  const invoke = operations as unknown as Record<OperationId, (request: OperationRequest<unknown>) => Promise<OperationResult>>;
  return middy<Event, APIGatewayProxyResultV2, Error, StatefulContext>()
    .use(resolveRoute(served))
    .use(errorEnvelope())
    .use(jsonBody())
    .use(authenticateCaller())
    .use(validate())
    .handler(async (_event, context): Promise<HttpResponse> => {
      const { route, meta, caller, input } = stateOf(context);
      // Fail closed: an operation never runs on input that did not come out of validation.
      if (!input) throw new Error(`no validated input for ${route.operationId}`);
      const result = await invoke[route.operationId]({ ...input, caller, meta } as OperationRequest<unknown>);
      const status = result.status ?? route.response.status;
      if ('serialized' in result) {
        return { statusCode: status, headers: { ...(result.serialized ? jsonHeaders : {}), ...result.headers }, body: result.serialized };
      }
      if ('binary' in result) {
        return { statusCode: status, headers: result.headers ?? {}, body: Buffer.from(result.binary).toString('base64'), isBase64Encoded: true };
      }
      if ('bareJson' in result) {
        return { statusCode: status, headers: { ...jsonHeaders, ...result.headers }, body: JSON.stringify(result.bareJson) };
      }
      return dataResponse(status, result.data, result.headers);
    });
};
