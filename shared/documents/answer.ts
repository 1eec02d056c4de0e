import type { OperationResult } from '../http/operation';
import type { DocumentModel } from './document';
import { documentHeaders, renderDocument } from './render';

/**
 * A document as an API answer: its page, named `filename` (an attachment when `download`, else
 * shown inline). The printed document (…/pdf, shared/documents/printed.ts) prints exactly this
 * page and takes its name from here.
 */
export const documentAnswer = (model: DocumentModel, filename: string, download = false): OperationResult => ({
  headers: documentHeaders(filename, download),
  serialized: renderDocument(model),
});
