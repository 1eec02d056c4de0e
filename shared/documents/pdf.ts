import { invokeFunction } from '../aws/lambda';
import { documentConfig, engineConfig } from '../config';
import { ValidationError } from '../errors';

/**
 * A document's page (render.ts) printed by Chromium, byte for byte the HTML its route answers with
 * `format=html`; the documents function's routes (…/pdf, shared/documents/printed.ts) print. The
 * functions that answer the API carry no browser (a zip Lambda cannot hold Chromium, and no bundle
 * but the scanner's may: tests/infra/stack.test.ts), so the page goes to the document printer:
 * - in AWS, the document printer function, from the scanner's container image (which already
 *   has Chromium), invoked synchronously (Lambda caps both the page sent and the PDF returned at
 *   6 MB: a larger document is refused with 400, and reads as HTML);
 * - locally, the stack's printer on a loopback port (infra/local/printer.ts), the same code.
 * shared/documents/print.ts is the printing both run.
 */

/** What a synchronous invocation can carry each way, with room for the JSON around it. */
export const maxPrintBytes = 5_500_000;

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
  const functionName = documentConfig.documentPrinterFunction;
  if (functionName) {
    return fromAnswer(await invokeFunction<PrintAnswer>(functionName, { html } satisfies PrintRequest, 'the document printer'));
  }
  const url = documentConfig.documentPrinterUrl;
  if (!url) throw new Error('No document printer is configured (DOCUMENT_PRINTER_FUNCTION in AWS, DOCUMENT_PRINTER_URL locally)');
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload, signal: AbortSignal.timeout(engineConfig.awsTimeouts.requestMs) });
  return fromAnswer((await response.json()) as PrintAnswer);
};

/** The PDF answer's headers: a download named for the document, never cached. */
export const pdfHeaders = (filename: string): Record<string, string> => ({
  'Content-Type': 'application/pdf',
  'Content-Disposition': `attachment; filename="${filename}.pdf"`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});
