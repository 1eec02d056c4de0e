import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { config } from '../../shared/config';
import { registerStackPort } from '../../shared/net/address-policy';
import { AppError, NotFoundError, ValidationError } from '../../shared/errors';
import { gatewayPayloadLimitBytes } from '../../shared/http/body-limits';
import { corsPolicy } from '../../shared/http/cors';
import { errorResponse } from '../../shared/http/error-mapper';
import { bracedPath, routeKeyOf, type FunctionGroup } from '../../shared/http/route';
import { routeList } from '../../shared/http/routes';
import { createEdge, type LocalEdge } from './edge';
import { staticResponse } from './static';

/**
 * The local stand-in for API Gateway: turns each HTTP request into a payload-2.0 event for the
 * same group handler a Lambda would run. It holds no endpoint logic of its own.
 */
type GroupHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const compiled = routeList.map((route) => {
  const names: string[] = [];
  const pattern = bracedPath(route.path).replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, regex: new RegExp(`^${pattern}$`) };
});

/** Where a group's handler comes from: its source (functions/<group>/handler.ts, the CDK stack's entry) or its bundle (infra/local/bundles.ts). */
export type HandlerSource = (group: FunctionGroup) => Promise<GroupHandler>;

const handlers = new Map<FunctionGroup, Promise<GroupHandler>>();
const fromSource: HandlerSource = (group) => {
  let loaded = handlers.get(group);
  if (!loaded) {
    loaded = import(`../../functions/${group}/handler.ts`).then((module: { handler: GroupHandler }) => module.handler);
    handlers.set(group, loaded);
  }
  return loaded;
};

/**
 * The body as text, or undefined once it passes the gateway's limit: a declared Content-Length
 * past it is refused before a byte is read, and a body that grows past it stops being read there
 * (nothing past the limit is buffered; the paused request stops the socket reading).
 */
const readBody = (request: IncomingMessage, limit: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = () => {
      request.off('data', onData);
      request.pause();
      chunks.length = 0;
      resolve(undefined);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) refuse();
      else chunks.push(chunk);
    };
    // Listening first marks the body as consumed, so the server never drains it on its own.
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
    if (Number(request.headers['content-length'] ?? 0) > limit) refuse();
  });

/** How long a connection whose body was left unread stays open after its answer (see closeUnread). */
const unreadBodyGraceMs = 2000;

/**
 * A connection whose body is left unread closes gently: after the answer this side half-closes,
 * and the socket is dropped once the client closes or the grace period ends. Closing it at once,
 * with the client's bytes still pending, resets the connection, and a client still sending would
 * lose the answer (node's default for `Connection: close` destroys the socket when written).
 */
const closeUnread = (socket: Socket) => {
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), unreadBodyGraceMs).unref();
  };
};

const payloadTooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body larger than the gateway's limit of ${gatewayPayloadLimitBytes} bytes`);

const clientIp = (request: IncomingMessage): string => {
  const forwarded = request.headers['x-forwarded-for'];
  if (config.trustForwardedFor && typeof forwarded === 'string' && forwarded.trim()) {
    return forwarded.split(',')[0]!.trim();
  }
  return (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
};

const lambdaContext = (requestId: string, functionName: string): Context =>
  ({
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    memoryLimitInMB: '512',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 15_000,
  }) as Context;

/**
 * The CORS answer: the calling origin, echoed (so it varies on Origin); or, for an answer the edge
 * shares between sites, `*` and no Vary, as the stack's response headers policy sets it there.
 */
const corsHeaders = (origin: string | undefined): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin ?? '*',
  'Access-Control-Expose-Headers': corsPolicy.exposeHeaders.join(', '),
  ...(origin ? { Vary: 'Origin' } : {}),
});

const send = (response: ServerResponse, result: APIGatewayProxyStructuredResultV2 | { statusCode: number; headers: Record<string, string>; body: Buffer }, origin: string | undefined) => {
  const headers = { ...corsHeaders(origin), ...(result.headers as Record<string, string> | undefined) };
  response.writeHead(result.statusCode ?? 200, headers);
  // A binary body (a PDF) comes base64-encoded, as API Gateway takes it and sends it on decoded.
  response.end('isBase64Encoded' in result && result.isBase64Encoded && typeof result.body === 'string' ? Buffer.from(result.body, 'base64') : (result.body ?? ''));
};

type Route = (typeof routeList)[number];

/** The payload-2.0 event API Gateway would make of a request. */
const eventOf = (
  route: Route,
  request: { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: string | undefined; pathParameters: Record<string, string> | undefined; sourceIp: string; requestId: string },
): APIGatewayProxyEventV2 => {
  const query: Record<string, string> = {};
  for (const [name, value] of request.query) query[name] = name in query ? `${query[name]},${value}` : value;
  return {
    version: '2.0',
    routeKey: routeKeyOf(route),
    rawPath: request.path,
    rawQueryString: request.query.toString(),
    headers: request.headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(request.pathParameters ? { pathParameters: request.pathParameters } : {}),
    ...(request.body ? { body: request.body } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: request.headers.host ?? 'localhost',
      domainPrefix: 'local',
      requestId: request.requestId,
      routeKey: routeKeyOf(route),
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
      http: { method: request.method, path: request.path, protocol: 'HTTP/1.1', sourceIp: request.sourceIp, userAgent: request.headers['user-agent'] ?? '' },
    },
  };
};

const decodedOrUndefined = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

const handle = async (request: IncomingMessage, response: ServerResponse, handlerOf: HandlerSource, edge: LocalEdge): Promise<void> => {
  const requestId = randomUUID();
  const url = new URL(request.url ?? '/', 'http://localhost');
  const method = (request.method ?? 'GET').toUpperCase();
  const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
  if (method === 'OPTIONS') {
    response.writeHead(204, {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': corsPolicy.allowMethods.join(', '),
      'Access-Control-Allow-Headers': corsPolicy.allowHeaders.join(', '),
      'Access-Control-Max-Age': String(corsPolicy.maxAgeSeconds),
    });
    response.end();
    return;
  }
  if (method === 'GET' || method === 'HEAD') {
    const asset = await staticResponse(url.pathname);
    if (asset) {
      response.writeHead(asset.statusCode, { ...asset.headers, 'X-Request-Id': requestId });
      response.end(method === 'HEAD' ? undefined : asset.body);
      return;
    }
  }
  const match = compiled
    .filter((candidate) => candidate.route.method === method)
    .map((candidate) => ({ candidate, groups: candidate.regex.exec(url.pathname) }))
    .find(({ groups }) => groups !== null);
  if (!match) {
    const notFound = errorResponse(new NotFoundError(`Route ${method} ${url.pathname}`), requestId);
    send(response, { ...notFound, headers: { ...notFound.headers, 'X-Request-Id': requestId } }, origin);
    return;
  }
  const { route, names } = match.candidate;
  const handler = await handlerOf(route.group);
  // The edge's routes: answered by the local CloudFront, whose origin request carries only the
  // policy's query strings (and, to revalidate, the ETag it holds); its CORS answer is shared.
  if (route.edgeCache && method === 'GET') {
    const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
    const served = await edge.serve(
      route.edgeCache,
      { path: url.pathname, query: url.searchParams, acceptEncoding: header('accept-encoding'), ifNoneMatch: header('if-none-match') },
      async ({ query, ifNoneMatch }) => {
        const originRequestId = randomUUID();
        const headers = { host: request.headers.host ?? 'localhost', 'user-agent': 'local-edge', ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) };
        const event = eventOf(route, { method, path: url.pathname, query, headers, body: undefined, pathParameters: undefined, sourceIp: '127.0.0.1', requestId: originRequestId });
        const result = await handler(event, lambdaContext(originRequestId, route.group));
        return { statusCode: result.statusCode ?? 200, headers: (result.headers ?? {}) as Record<string, string>, body: result.body ?? '' };
      },
    );
    send(response, served, undefined);
    return;
  }
  const body = await readBody(request, gatewayPayloadLimitBytes);
  if (body === undefined) {
    // The rest of the body is never read: the connection closes after the answer.
    closeUnread(request.socket);
    const refused = errorResponse(payloadTooLarge(), requestId);
    send(response, { ...refused, headers: { ...refused.headers, 'X-Request-Id': requestId, Connection: 'close' } }, origin);
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  // API Gateway answers a path it cannot decode with 400; so does this stand-in, in the envelope.
  const undecodable = names.filter((_, index) => decodedOrUndefined(match.groups![index + 1]!) === undefined);
  if (undecodable.length > 0) {
    const invalid = new ValidationError(Object.fromEntries(undecodable.map((name) => [name, 'Invalid percent-encoding'])));
    const failure = errorResponse(invalid, requestId);
    send(response, { ...failure, headers: { ...failure.headers, 'X-Request-Id': requestId } }, origin);
    return;
  }
  const pathParameters = names.length ? Object.fromEntries(names.map((name, index) => [name, decodedOrUndefined(match.groups![index + 1]!)!])) : undefined;
  const event = eventOf(route, { method, path: url.pathname, query: url.searchParams, headers, body, pathParameters, sourceIp: clientIp(request), requestId });
  send(response, await handler(event, lambdaContext(requestId, route.group)), origin);
};

/**
 * `ready`: requests are held (not answered) until it settles, so a client that sees the first
 * answer sees the whole stack ready (`npm start` binds first, because the links it seeds carry the
 * port actually bound, and finishes its start-up behind this gate).
 */
export const startApiServer = async (
  port: number,
  host = '127.0.0.1',
  ready: Promise<void> = Promise.resolve(),
  handlerOf: HandlerSource = fromSource,
): Promise<{ server: Server; url: string; edge: LocalEdge }> => {
  // Each server its own edge: one test file's copies never answer another's.
  const edge = createEdge();
  const server = createServer((request, response) => {
    ready.then(() => handle(request, response, handlerOf, edge)).catch((error: unknown) => {
      const requestId = randomUUID();
      const failure = errorResponse(error, requestId);
      if (!response.headersSent) response.writeHead(failure.statusCode, { ...failure.headers, 'X-Request-Id': requestId });
      response.end(failure.body);
    });
  });
  // Idle keep-alive connections stay open a minute (as an AWS load balancer keeps them), far
  // longer than clients keep them idle, so a client never reuses one the server is closing.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deeper accept queue than node's 511 (the kernel caps it at net.core.somaxconn): a burst
    // of connections on a loaded machine waits there instead of being refused or reset.
    server.listen({ port, host, backlog: 4096 }, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  // The API is the stack's own: no local exception (a scan URL on loopback) may reach it.
  server.once('close', registerStackPort(bound));
  const url = `http://${host}:${bound}`;
  // The printed documents ask this API for the page they print, as in AWS they invoke the
  // document's own function (shared/documents/printed.ts): the server started last is the one asked.
  process.env.DOCUMENT_SOURCE_URL = url;
  return { server, url, edge };
};
