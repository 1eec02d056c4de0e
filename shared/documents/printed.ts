import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invokeFunction } from '../aws/lambda';
import { documentConfig, engineConfig } from '../config';
import type { OperationResult, RequestMeta } from '../http/operation';
import { routeKeyOf, type FunctionGroup, type RouteDefinition } from '../http/route';
import { pdfHeaders, printPdf } from './pdf';

/**
 * The printed documents (group `documents`, routes `…/pdf`): the page the document's own route
 * answers with `format=html`, printed. The page is asked of that route's function with the caller's
 * own request (token included), so the document's function authorises, counts and refuses exactly
 * as when it is asked for the page itself, and a refusal is answered as it answered it. Only this
 * function holds the Lambda client (the document printer, and the functions it asks); the functions
 * that build documents print nothing, which keeps the evidence function within the bundle guard.
 * - in AWS, the document's function is invoked with the payload-2.0 event API Gateway would have
 *   made of that request (DOCUMENT_SOURCE_FUNCTIONS names it per group);
 * - locally, the request goes to the local API (DOCUMENT_SOURCE_URL), which makes that event.
 */
export type PrintedRoute = RouteDefinition & { prints: { operationId: string; group: FunctionGroup } };

/** What the page's route reads of the caller's request; no other header is passed on. */
const passedOn = ['authorization', 'content-type', 'user-agent', 'origin', 'accept-language', 'x-forwarded-for'];

export interface PageRequest {
  group: FunctionGroup;
  method: RouteDefinition['method'];
  /** The document's route, spec form (`:name`). */
  path: string;
  rawPath: string;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string | undefined;
  meta: RequestMeta;
}

export interface PrintInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  meta: RequestMeta;
}

const strings = (values: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((values ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined).map(([name, value]) => [name, String(value)]));

/** The request for the page: the printed route's path less `/pdf`, its validated input, and `format=html`. */
export const pageRequestOf = (route: PrintedRoute, input: PrintInput): PageRequest => {
  if (!route.path.endsWith('/pdf')) throw new Error(`printed route ${route.path} does not end in /pdf`);
  const path = route.path.slice(0, -'/pdf'.length);
  const pathParameters = strings(input.params);
  const rawPath = path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) => encodeURIComponent(pathParameters[name] ?? ''));
  const headers = Object.fromEntries(passedOn.flatMap((name) => (input.meta.headers[name] === undefined ? [] : [[name, input.meta.headers[name]!]])));
  const body = input.body === undefined ? undefined : JSON.stringify(input.body);
  return { group: route.prints.group, method: route.method, path, rawPath, pathParameters, query: { ...strings(input.query), format: 'html' }, headers, body, meta: input.meta };
};

/** The payload-2.0 event API Gateway would make of the page's request. */
export const pageEventOf = (page: PageRequest): APIGatewayProxyEventV2 => {
  const routeKey = routeKeyOf(page);
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: page.rawPath,
    rawQueryString: new URLSearchParams(page.query).toString(),
    headers: page.headers,
    queryStringParameters: page.query,
    ...(Object.keys(page.pathParameters).length ? { pathParameters: page.pathParameters } : {}),
    ...(page.body === undefined ? {} : { body: page.body }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '',
      apiId: '',
      domainName: '',
      domainPrefix: '',
      requestId: page.meta.requestId,
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      http: { method: page.method, path: page.rawPath, protocol: 'HTTP/1.1', sourceIp: page.meta.ip, userAgent: page.meta.userAgent ?? '' },
    },
  };
};

interface PageAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const lowerCased = (headers: Record<string, unknown> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));

const askForPage = async (page: PageRequest): Promise<PageAnswer> => {
  const functionName = documentConfig.documentSourceFunctions[page.group];
  if (functionName) {
    const answer = await invokeFunction<{ statusCode?: number; headers?: Record<string, unknown>; body?: string; isBase64Encoded?: boolean }>(functionName, pageEventOf(page), `the ${page.group} function`);
    const body = answer.isBase64Encoded ? Buffer.from(answer.body ?? '', 'base64').toString('utf8') : (answer.body ?? '');
    return { statusCode: answer.statusCode ?? 200, headers: lowerCased(answer.headers), body };
  }
  const base = documentConfig.documentSourceUrl;
  if (!base) throw new Error(`No function for the ${page.group} documents is configured (DOCUMENT_SOURCE_FUNCTIONS in AWS, DOCUMENT_SOURCE_URL locally)`);
  const response = await fetch(`${base}${page.rawPath}?${new URLSearchParams(page.query)}`, {
    method: page.method,
    headers: page.headers,
    ...(page.body === undefined ? {} : { body: page.body }),
    signal: AbortSignal.timeout(engineConfig.awsTimeouts.requestMs),
  });
  return { statusCode: response.status, headers: lowerCased(Object.fromEntries(response.headers)), body: await response.text() };
};

/** `attachment; filename="evidence-pack-0123.html"` → `evidence-pack-0123`. */
const filenameOf = (disposition: string | undefined): string => /filename="([^"]+)\.html"/.exec(disposition ?? '')?.[1] ?? 'document';

/** The printed route's answer: the page printed, or the document's route's refusal as it answered it. */
export const printedDocument = async (route: PrintedRoute, input: PrintInput): Promise<OperationResult> => {
  const page = await askForPage(pageRequestOf(route, input));
  if (page.statusCode !== 200) {
    return { status: page.statusCode, headers: page.headers['retry-after'] ? { 'Retry-After': page.headers['retry-after'] } : {}, serialized: page.body };
  }
  if (!page.headers['content-type']?.startsWith('text/html')) throw new Error(`the ${route.prints.group} function answered ${route.prints.operationId} with ${page.headers['content-type']}, not a page`);
  return { headers: pdfHeaders(filenameOf(page.headers['content-disposition'])), binary: await printPdf(page.body) };
};
