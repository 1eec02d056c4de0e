import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { routeKeyOf, type HttpMethod } from '../shared/http/route';
import { routeList } from '../shared/http/routes';

/**
 * Calls the group handlers the way API Gateway does (payload 2.0, as infra/local/server.ts builds
 * it), in this process and without HTTP, so a measurement holds the handler and nothing else.
 */
export type Route = (typeof routeList)[number];
type GroupHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Looked up by method and path, so a route that is not in the table yet is simply absent. */
export const findRoute = (method: HttpMethod, path: string): Route | undefined =>
  routeList.find((route) => route.method === method && route.path === path);

export const requireRoute = (method: HttpMethod, path: string): Route => {
  const route = findRoute(method, path);
  if (!route) throw new Error(`no route ${method} ${path} in shared/http/routes.ts`);
  return route;
};

const handlers = new Map<string, Promise<GroupHandler>>();

/** The handler a group's Lambda runs (functions/<group>/handler.ts, the CDK stack's convention). */
export const handlerOf = (group: string): Promise<GroupHandler> => {
  let loaded = handlers.get(group);
  if (!loaded) {
    loaded = import(`../functions/${group}/handler.ts`).then((module: { handler: GroupHandler }) => module.handler);
    handlers.set(group, loaded);
  }
  return loaded;
};

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  bearer?: string;
  ip?: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** An address in the benchmarking range (198.18.0.0/15), different per call unless one is named. */
export const randomIp = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

const eventOf = (route: Route, call: Call): APIGatewayProxyEventV2 => {
  const rawPath = route.path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
  const headers: Record<string, string> = {
    'user-agent': 'cms-bench',
    ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(call.bearer ? { authorization: `Bearer ${call.bearer}` } : {}),
    ...call.headers,
  };
  const requestId = randomUUID();
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: routeKeyOf(route),
    rawPath,
    rawQueryString: new URLSearchParams(call.query).toString(),
    headers,
    ...(call.query ? { queryStringParameters: call.query } : {}),
    ...(call.params ? { pathParameters: call.params } : {}),
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'bench',
      requestId,
      routeKey: routeKeyOf(route),
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
      http: { method: route.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: call.ip ?? randomIp(), userAgent: headers['user-agent']! },
    },
  };
};

const contextOf = (route: Route, requestId: string): Context =>
  ({
    awsRequestId: requestId,
    functionName: route.group,
    functionVersion: '$LATEST',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 15_000,
  }) as Context;

/** One request through the route's group handler; the event is built anew each time (middy parses the body in place). */
export const invoke = async <T = unknown>(route: Route, call: Call = {}): Promise<Answer<T>> => {
  const handler = await handlerOf(route.group);
  const event = eventOf(route, call);
  const result = await handler(event, contextOf(route, event.requestContext.requestId));
  return { status: result.statusCode ?? 200, body: (result.body ? JSON.parse(result.body) : undefined) as T };
};

export const isSuccess = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** For set-up steps, which must work: the answer's `data`, or an error naming the route and the answer. */
export const expectData = async <T>(route: Route, call: Call = {}): Promise<T> => {
  const answer = await invoke<{ data: T }>(route, call);
  if (!isSuccess(answer)) throw new Error(`${route.method} ${route.path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
};
