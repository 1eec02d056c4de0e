import { createAsset, createProcessor, deleteAsset, deleteProcessor, listDataAssets, listDataProcessors, readAsset, readProcessor, updateAsset, updateProcessor } from '../../shared/data-map/service';
import { documentAnswer } from '../../shared/documents/answer';
import { createGroupHandler } from '../../shared/http/handler';
import { created, ok, type OperationResult } from '../../shared/http/operation';
import { dataMapRoutes } from '../../shared/http/routes/data-map';
import { rightsRoutes } from '../../shared/http/routes/rights';
import { confirmPublicRequest, publicRequest, submitPublicRequest } from '../../shared/rights/intake';
import { listRequests, logRequest, markRequestAsset, readRequest, readSettings, requestSummary, requestSummaryDocument, rightsMeans, startRequest, updateSettings } from '../../shared/rights/requests';
import { resolveRequest } from '../../shared/rights/resolve';

/** What the principal's link returns is theirs alone: never kept by a cache. */
const unstored = (data: unknown): OperationResult => ({ data, headers: { 'Cache-Control': 'no-store' } });

export const handler = createGroupHandler('rights', { ...dataMapRoutes, ...rightsRoutes }, {
  createDataAsset: async ({ caller, body }) => created(await createAsset(caller.tenantId, body)),
  listDataAssets: async ({ caller }) => ok(await listDataAssets(caller.tenantId)),
  getDataAsset: async ({ caller, params }) => ok(await readAsset(caller.tenantId, params.assetId)),
  updateDataAsset: async ({ caller, params, body }) => ok(await updateAsset(caller.tenantId, params.assetId, body)),
  deleteDataAsset: async ({ caller, params }) => ok(await deleteAsset(caller.tenantId, params.assetId)),
  createProcessor: async ({ caller, body }) => created(await createProcessor(caller.tenantId, body)),
  listProcessors: async ({ caller }) => ok(await listDataProcessors(caller.tenantId)),
  getProcessor: async ({ caller, params }) => ok(await readProcessor(caller.tenantId, params.processorId)),
  updateProcessor: async ({ caller, params, body }) => ok(await updateProcessor(caller.tenantId, params.processorId, body)),
  deleteProcessor: async ({ caller, params }) => ok(await deleteProcessor(caller.tenantId, params.processorId)),
  submitPublicRightsRequest: async ({ body }) => ok(await submitPublicRequest(body), 202),
  getPublicRightsRequest: async ({ params }) => unstored(await publicRequest(params.token)),
  confirmPublicRightsRequest: async ({ params }) => unstored(await confirmPublicRequest(params.token)),
  getRightsMeans: async ({ params }) => ok(await rightsMeans(params.tenantSlug)),
  logRightsRequest: async ({ caller, body }) => created(await logRequest(caller.tenantId, caller.userId, body)),
  listRightsRequests: async ({ caller, query }) => ok(await listRequests(caller.tenantId, query)),
  getRightsRequest: async ({ caller, params }) => ok(await readRequest(caller.tenantId, params.requestId)),
  getRightsRequestSummary: async ({ caller, params, query }) =>
    query.format === 'json' ? ok(await requestSummary(caller.tenantId, params.requestId)) : documentAnswer(await requestSummaryDocument(caller.tenantId, params.requestId), `access-summary-${params.requestId}`),
  startRightsRequest: async ({ caller, params }) => ok(await startRequest(caller.tenantId, caller.userId, params.requestId)),
  markRightsRequestAsset: async ({ caller, params, body }) => ok(await markRequestAsset(caller.tenantId, caller.userId, params.requestId, params.assetId, body)),
  resolveRightsRequest: async ({ caller, params, body }) => ok(await resolveRequest(caller.tenantId, caller.userId, params.requestId, body)),
  getRightsSettings: async ({ caller }) => ok(await readSettings(caller.tenantId)),
  updateRightsSettings: async ({ caller, body }) => ok(await updateSettings(caller.tenantId, body)),
});
