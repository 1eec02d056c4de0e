import type { OperationResult } from '../http/operation';
import type { DocumentModel } from './document';
import { printPdf, pdfHeaders } from './pdf';
import { documentHeaders, renderDocument } from './render';

/**
 * A document as an API answer: its page (`html`), or that same page printed (`pdf`). What
 * filename a download takes is the route's; the page is rendered once, so the PDF is exactly it.
 */
export const documentAnswer = async (model: DocumentModel, format: 'html' | 'pdf', filename: string, download = false): Promise<OperationResult> => {
  const html = renderDocument(model);
  if (format === 'html') return { headers: documentHeaders(download ? filename : undefined), serialized: html };
  return { headers: pdfHeaders(filename), binary: await printPdf(html) };
};
