import { consentAnalytics } from '../../shared/consent/analytics';
import { listRecords } from '../../shared/consent/listing';
import { proofOf, recordsByExternalId, statusByHash } from '../../shared/consent/lookups';
import { recordConsent } from '../../shared/consent/recording';
import { childInputOf } from '../../shared/children/decision';
import { listSettingsChanges, readConsentSettings, saveConsentSettings } from '../../shared/consent/settings';
import { completeComplianceTask, listComplianceTasks } from '../../shared/consent/compliance-tasks';
import { createWithdrawalToken, withdrawForPrincipal } from '../../shared/consent/withdrawal-routes';
import { createGroupHandler } from '../../shared/http/handler';
import { consentRoutes } from '../../shared/http/routes/consent';
import { withdrawalRoutes } from '../../shared/http/routes/withdrawals';
import { created, ok } from '../../shared/http/operation';

export const handler = createGroupHandler('consent', { ...consentRoutes, ...withdrawalRoutes }, {
  recordConsent: async ({ caller, body, meta }) =>
    created(
      await recordConsent({
        tenantId: caller.tenantId,
        noticeId: body.noticeId,
        principal: { by: 'staff', userId: caller.userId, identifier: body.dataPrincipalIdentifier },
        externalId: body.externalId,
        consentGiven: body.consentGiven,
        ipAddress: body.ipAddress ?? meta.ip,
        userAgent: body.userAgent ?? meta.userAgent,
        language: body.language,
        position: body.positionShown,
        channel: 'DASHBOARD',
        countsAgainstMonthlyLimit: false,
        issueWithdrawalKey: false,
        child: childInputOf(body),
      }),
    ),
  getConsentSettings: async ({ caller }) => ok(await readConsentSettings(caller.tenantId)),
  saveConsentSettings: async ({ caller, body }) => ok(await saveConsentSettings(caller.tenantId, body, caller.userId)),
  listConsentSettingsChanges: async ({ caller }) => ok(await listSettingsChanges(caller.tenantId)),
  consentAnalytics: async ({ caller }) => ok(await consentAnalytics(caller.tenantId)),
  listConsentRecords: async ({ caller, query }) => ok(await listRecords(caller.tenantId, query)),
  consentStatus: async ({ caller, params }) => ok(await statusByHash(caller.tenantId, params.hash)),
  consentByExternalId: async ({ caller, params }) => ok(await recordsByExternalId(caller.tenantId, params.externalId)),
  consentProof: async ({ caller, params }) => ok(await proofOf(caller.tenantId, params.id)),
  withdrawConsent: async ({ caller, body }) => ok(await withdrawForPrincipal(caller.tenantId, caller.userId, body)),
  createWithdrawalToken: async ({ caller, body }) => created(await createWithdrawalToken(caller.tenantId, body)),
  listComplianceTasks: async ({ caller, query }) => ok(await listComplianceTasks(caller.tenantId, query.status)),
  completeComplianceTask: async ({ caller, params }) => ok(await completeComplianceTask(caller.tenantId, params.id, caller.userId)),
});

