import { breachParams, printedReportQuery } from '../../breaches/schemas';
import { evidencePackBody } from '../../evidence-pack/schemas';
import { requestParams } from '../../rights/schemas';
import type { RouteDefinition } from '../route';

const printed = (what: string) =>
  `Extension. ${what} printed by Chromium: exactly the page the same request answers at the path without /pdf with format=html, as a download (application/pdf). The document's own route is asked for the page with the caller's token, so it authorises, counts and answers every refusal as that route does. A page over about 5.5 MB is refused (400 VALIDATION_ERROR on format): take format=html and print it from the browser.`;
const media = { 'application/pdf': 'The document printed' };

/**
 * The printed documents: group `documents`, the one function that holds the Lambda client the
 * document printer is invoked with (the printer is the scanner's image, with Chromium). Each route
 * prints the page of the route it names in `prints` (shared/documents/printed.ts), so the
 * functions that build documents carry no printing: the evidence function alone holds S3, KMS and
 * the evidence code, and stays under the 600 KB bundle guard (docs/bundles.md).
 */
export const documentRoutes = {
  printEvidencePack: {
    method: 'POST',
    path: '/api/v1/consent/evidence-packs/pdf',
    group: 'documents',
    prints: { operationId: 'createEvidencePack', group: 'evidence' },
    auth: { kind: 'bearer', access: 'write' },
    summary: "One principal's evidence pack, printed",
    description: printed('The evidence pack (POST /consent/evidence-packs) as a document,'),
    tags: ['Consent records'],
    request: { body: evidencePackBody },
    response: { status: 200, description: 'The pack as a document, printed', media },
    errors: ['NOT_FOUND'],
  },
  printBoardReport: {
    method: 'GET',
    path: '/api/v1/breaches/:breachId/board-report/pdf',
    group: 'documents',
    prints: { operationId: 'getBoardReport', group: 'breaches' },
    auth: { kind: 'bearer', access: 'read' },
    summary: 'A Board filing, or its preview, printed',
    description: printed('The filing of `stage` (GET /breaches/{breachId}/board-report) as a document,'),
    tags: ['Breaches'],
    request: { params: breachParams, query: printedReportQuery },
    response: { status: 200, description: 'The filing as a document, printed', media },
    errors: ['NOT_FOUND'],
  },
  printRightsRequestSummary: {
    method: 'GET',
    path: '/api/v1/rights/requests/:requestId/summary/pdf',
    group: 'documents',
    prints: { operationId: 'getRightsRequestSummary', group: 'rights' },
    auth: { kind: 'bearer', access: 'read' },
    summary: "The access summary of the request's principal, printed",
    description: printed('The access summary (GET /rights/requests/{requestId}/summary) as a document,'),
    tags: ['Rights requests'],
    request: { params: requestParams },
    response: { status: 200, description: 'The summary as a document, printed', media },
    errors: ['NOT_FOUND', 'FEATURE_NOT_AVAILABLE'],
  },
} as const satisfies Record<string, RouteDefinition>;
