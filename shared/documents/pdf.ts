import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { clientOptions, lazyClient } from '../aws/clients';
import { config } from '../config';
import { ValidationError } from '../errors';

/**
 * `?format=pdf`: a document's page (render.ts) printed by Chromium, byte for byte the HTML the
 * same request answers with `format=html`. The functions that answer the API carry no browser (a
 * zip Lambda cannot hold Chromium, and no bundle but the scanner's may: tests/infra/stack.test.ts),
 * so they hand the page to the document printer and answer with what it prints:
 * - in AWS, the document printer function, from the scanner's container image (which already
 *   has Chromium), invoked synchronously (Lambda caps both the page sent and the PDF returned at
 *   6 MB: a larger document is refused with 400, and reads as HTML);
 * - locally, the stack's printer on a loopback port (infra/local/printer.ts), the same code.
 * shared/documents/print.ts is the printing both run.
 */

/** What a synchronous invocation can carry each way, with room for the JSON around it. */
export const maxPrintBytes = 5_500_000;

const lambdaClient = /* @__PURE__ */ lazyClient('lambda', (endpoint) => new LambdaClient(clientOptions(endpoint)));

export interface PrintRequest {
  html: string;
}
export type PrintAnswer = { pdf: string } | { error: string };

const tooLarge = () => new ValidationError({ format: 'This document is too large to print as a PDF here; use format=html and print it from the browser' }, 'The document is too large for a PDF');

const fromAnswer = (answer: PrintAnswer): Uint8Array => {
  if ('error' in answer) throw new Error(`the document printer failed: ${answer.error}`);
  const pdf = Buffer.from(answer.pdf, 'base64');
  if (pdf.byteLength * 1.34 > maxPrintBytes) throw tooLarge();
  return new Uint8Array(pdf);
};

export const printPdf = async (html: string): Promise<Uint8Array> => {
  const payload = JSON.stringify({ html } satisfies PrintRequest);
  if (Buffer.byteLength(payload) > maxPrintBytes) throw tooLarge();
  const functionName = config.documentPrinterFunction;
  if (functionName) {
    const answer = await (await lambdaClient()).send(new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(payload) }));
    if (answer.FunctionError || !answer.Payload) throw new Error(`the document printer failed: ${answer.FunctionError ?? 'no answer'}`);
    return fromAnswer(JSON.parse(new TextDecoder().decode(answer.Payload)) as PrintAnswer);
  }
  const url = config.documentPrinterUrl;
  if (!url) throw new Error('No document printer is configured (DOCUMENT_PRINTER_FUNCTION in AWS, DOCUMENT_PRINTER_URL locally)');
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload, signal: AbortSignal.timeout(config.awsTimeouts.requestMs) });
  return fromAnswer((await response.json()) as PrintAnswer);
};

/** The PDF answer's headers: a download named for the document, never cached. */
export const pdfHeaders = (filename: string): Record<string, string> => ({
  'Content-Type': 'application/pdf',
  'Content-Disposition': `attachment; filename="${filename}.pdf"`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});
