import { describeError, log } from '../../shared/log';
import type { PrintAnswer, PrintRequest } from '../../shared/documents/pdf';
import { printHtml } from '../../shared/documents/print';

/**
 * The document printer: a document's page in, its PDF out (base64). Invoked synchronously by the
 * functions that answer `?format=pdf` (shared/documents/pdf.ts); it runs from the scanner's
 * container image, the one image with Chromium (functions/scanner/Dockerfile, infra/document-printer.ts).
 * No route reaches it and it reads no table.
 */
export const handler = async (event: PrintRequest): Promise<PrintAnswer> => {
  if (typeof event?.html !== 'string') return { error: 'no html to print' };
  try {
    return { pdf: Buffer.from(await printHtml(event.html)).toString('base64') };
  } catch (error) {
    log.error('a document could not be printed', describeError(error));
    return { error: 'the document could not be printed' };
  }
};
