import { consentAnalytics } from '../../shared/consent/analytics';
import { listRecords } from '../../shared/consent/listing';
import { proofOf, recordsByExternalId, statusByHash } from '../../shared/consent/lookups';
import { listSettingsChanges, readConsentSettings, saveConsentSettings } from '../../shared/consent/settings';
import { completeComplianceTask, listComplianceTasks } from '../../shared/consent/compliance-tasks';
import { createGroupHandler } from '../../shared/http/handler';
import { consentRoutes } from '../../shared/http/routes/consent';
import { complianceTaskRoutes } from '../../shared/http/routes/withdrawals';
import { ok } from '../../shared/http/operation';

/**
 * The dashboard's consent screens: records, their status and proofs, analytics, the consent
 * settings and the compliance tasks withdrawals make. What a DPO does for a principal (record a
 * consent, withdraw one, make a withdrawal link) is the function consent-staff, so these reads do
 * not load the recording and withdrawal code on a cold start (docs/bundles.md).
 */
export const handler = createGroupHandler('consent', { ...consentRoutes, ...complianceTaskRoutes }, {
  getConsentSettings: async ({ caller }) => ok(await readConsentSettings(caller.tenantId)),
  saveConsentSettings: async ({ caller, body }) => ok(await saveConsentSettings(caller.tenantId, body, caller.userId)),
  listConsentSettingsChanges: async ({ caller }) => ok(await listSettingsChanges(caller.tenantId)),
  consentAnalytics: async ({ caller }) => ok(await consentAnalytics(caller.tenantId)),
  listConsentRecords: async ({ caller, query }) => ok(await listRecords(caller.tenantId, query)),
  consentStatus: async ({ caller, params }) => ok(await statusByHash(caller.tenantId, params.hash)),
  consentByExternalId: async ({ caller, params }) => ok(await recordsByExternalId(caller.tenantId, params.externalId)),
  consentProof: async ({ caller, params }) => ok(await proofOf(caller.tenantId, params.id)),
  listComplianceTasks: async ({ caller, query }) => ok(await listComplianceTasks(caller.tenantId, query.status)),
  completeComplianceTask: async ({ caller, params }) => ok(await completeComplianceTask(caller.tenantId, params.id, caller.userId)),
});

