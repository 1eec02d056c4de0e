import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler } from '../../functions/document-printer/handler';
import { stopPrinting } from '../../shared/documents/print';

/**
 * The local stand-in for the document printer function: the same handler behind a loopback port,
 * which the API's functions reach as DOCUMENT_PRINTER_URL (shared/documents/pdf.ts), from their
 * source or from their bundles, as in AWS they invoke the printer function. Chromium starts on the
 * first document.
 */
const maxBodyBytes = 8 * 1024 * 1024;

export const startPrinter = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => {
      void (async () => {
        let answer;
        try {
          answer = size > maxBodyBytes || request.method !== 'POST' ? { error: 'not a print request' } : await handler(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          answer = { error: 'not a print request' };
        }
        response.writeHead('error' in answer ? 400 : 200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/print`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopPrinting();
    },
  };
};
