import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
}

export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** 'ok' unless given */
  body?: string;
  /** drop the connection instead of answering (the client sees ECONNRESET) */
  reset?: boolean;
}

/** A real HTTP receiver on 127.0.0.1; `respond` decides each answer (status, optional delay, body). */
export const startReceiver = async (respond: (request: Received, index: number) => Answer) => {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { at: Date.now(), method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, rawBody: Buffer.concat(chunks) };
      received.push(entry);
      const answer = respond(entry, received.length - 1);
      if (answer.reset) {
        request.socket.destroy();
        return;
      }
      setTimeout(() => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body ?? 'ok');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
};

export const waitFor = async <T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
