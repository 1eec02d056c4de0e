import { printedDocument } from '../../shared/documents/printed';
import { createGroupHandler } from '../../shared/http/handler';
import { documentRoutes } from '../../shared/http/routes/documents';

/**
 * The printed documents: each route prints the page its document's own route answers with
 * format=html (shared/documents/printed.ts). The one function that holds the Lambda client.
 */
export const handler = createGroupHandler('documents', documentRoutes, {
  printEvidencePack: (request) => printedDocument(documentRoutes.printEvidencePack, request),
  printBoardReport: (request) => printedDocument(documentRoutes.printBoardReport, request),
  printRightsRequestSummary: (request) => printedDocument(documentRoutes.printRightsRequestSummary, request),
});
