import { filingTitle } from '../../shared/breaches/board-document';
import { boardFiling, boardFilingDocument, fileWithBoard } from '../../shared/breaches/filings';
import { documentAnswer } from '../../shared/documents/answer';
import { previewIntimation, startIntimation } from '../../shared/breaches/intimation';
import { addPrincipals, breachDetail, closeBreach, createBreach, extendBreach, listTenantBreaches, updateBreach } from '../../shared/breaches/service';
import { createGroupHandler } from '../../shared/http/handler';
import { created, ok } from '../../shared/http/operation';
import { breachRoutes } from '../../shared/http/routes/breaches';

export const handler = createGroupHandler('breaches', breachRoutes, {
  createBreach: async ({ caller, body }) => created(await createBreach(caller, body)),
  listBreaches: async ({ caller, query }) => ok(await listTenantBreaches(caller.tenantId, query)),
  getBreach: async ({ caller, params }) => ok(await breachDetail(caller.tenantId, params.breachId)),
  updateBreach: async ({ caller, params, body }) => ok(await updateBreach(caller, params.breachId, body)),
  addBreachPrincipals: async ({ caller, params, body }) => ok(await addPrincipals(caller, params.breachId, body.principalHashes)),
  intimateBreachPrincipals: async ({ caller, params, body }) => ok(await startIntimation(caller, params.breachId, body), 202),
  previewBreachIntimation: async ({ caller, params, body }) => ok(await previewIntimation(caller.tenantId, params.breachId, body)),
  fileBoardIntimation: async ({ caller, params }) => created(await fileWithBoard(caller, params.breachId, 'INTIMATION')),
  fileBoardReport: async ({ caller, params }) => created(await fileWithBoard(caller, params.breachId, 'DETAILED_REPORT')),
  getBoardReport: async ({ caller, params, query }) =>
    query.format === 'json'
      ? ok(await boardFiling(caller.tenantId, params.breachId, query.stage))
      : documentAnswer(await boardFilingDocument(caller.tenantId, params.breachId, query.stage), `${filingTitle(query.stage).split(' ')[0]!.toLowerCase()}-${params.breachId}`),
  extendBreach: async ({ caller, params, body }) => ok(await extendBreach(caller, params.breachId, body)),
  closeBreach: async ({ caller, params }) => ok(await closeBreach(caller, params.breachId)),
});
