import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AwsError } from './errors';

export interface HttpRequest {
  method: string;
  origin: URL;
  /** path and query exactly as sent, never normalised: what was signed */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Connections are kept open between requests, as the SDK's handler does: a warm Lambda pays the
 * TLS handshake once, not per call. 50 sockets per host, the SDK's default too.
 */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 50 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 50 }) };

/** A request that has not answered in this long is abandoned and counts as a transient failure. */
const timeoutMs = 30_000;

export const sendHttp = (request: HttpRequest): Promise<HttpResponse> =>
  new Promise((resolve, reject) => {
    const secure = request.origin.protocol === 'https:';
    const outgoing = (secure ? httpsRequest : httpRequest)(
      request.origin,
      { method: request.method, path: request.path, headers: { ...request.headers, 'content-length': String(request.body.length) }, agent: secure ? agents.https : agents.http, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new AwsError('TimeoutError', `no answer from ${request.origin.host} within ${timeoutMs} ms`, undefined)));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
