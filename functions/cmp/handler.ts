import { cmpAnalytics } from '../../shared/cmp/analytics';
import type { BannerLabels } from '../../shared/cmp/labels';
import { configRevision, deleteTracker, listTrackers, saveConfig, upsertTrackers } from '../../shared/cmp/service';
import { draftAllLabelSets, draftLabelSet, listLabelSets, saveLabelSet } from '../../shared/cmp/translations';
import { scanRunReport, scanRuns, startScan } from '../../shared/scanner/service';
import { createGroupHandler } from '../../shared/http/handler';
import { cmpRoutes } from '../../shared/http/routes/cmp';
import { ok } from '../../shared/http/operation';

export const handler = createGroupHandler('cmp', cmpRoutes, {
  saveCmpConfig: async ({ caller, body }) => ok(await saveConfig(caller.tenantId, body)),
  getCmpConfigRevision: async ({ caller, params }) => ok(await configRevision(caller.tenantId, params.revision)),
  listCmpTrackers: async ({ caller }) => ok(await listTrackers(caller.tenantId)),
  upsertCmpTrackers: async ({ caller, body }) => ok(await upsertTrackers(caller.tenantId, body.trackers)),
  deleteCmpTracker: async ({ caller, body }) => ok(await deleteTracker(caller.tenantId, body)),
  getCmpAnalytics: async ({ caller, query }) => ok(await cmpAnalytics(caller.tenantId, query)),
  listCmpTranslations: async ({ caller }) => ok(await listLabelSets(caller.tenantId)),
  draftCmpTranslation: async ({ caller, body }) => ok(await draftLabelSet(caller.tenantId, body.language, body.replaceReviewed ?? false)),
  draftAllCmpTranslations: async ({ caller }) => ok(await draftAllLabelSets(caller.tenantId)),
  saveCmpTranslation: async ({ caller, params, body }) =>
    ok(await saveLabelSet(caller.tenantId, params.language, body.labels as Partial<BannerLabels>)),
  startCmpScan: async ({ caller }) => ok(await startScan(caller.tenantId, 'MANUAL'), 202),
  listCmpScanRuns: async ({ caller }) => ok(await scanRuns(caller.tenantId)),
  getCmpScanRun: async ({ caller, params }) => ok(await scanRunReport(caller.tenantId, params.scanRunId)),
});
