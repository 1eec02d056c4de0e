import { clock } from '../../shared/clock';
import { consentAnalytics } from '../../shared/consent/analytics';
import { exportRecords } from '../../shared/consent/export';
import { packPageHeaders, renderPackPage } from '../../shared/evidence-pack/html';
import { buildEvidencePack } from '../../shared/evidence-pack/pack';
import { consistencyBetween, latestCheckpoint } from '../../shared/evidence/proofs';
import { verifyLog } from '../../shared/evidence/verify';
import { listRecords } from '../../shared/consent/listing';
import { proofOf, recordsByExternalId, statusByHash } from '../../shared/consent/lookups';
import { recordConsent } from '../../shared/consent/recording';
import { readConsentSettings, saveConsentSettings } from '../../shared/consent/settings';
import { completeComplianceTask, listComplianceTasks } from '../../shared/consent/compliance-tasks';
import { createWithdrawalToken, withdrawForPrincipal } from '../../shared/consent/withdrawal-routes';
import { createGroupHandler } from '../../shared/http/handler';
import { consentRoutes } from '../../shared/http/routes/consent';
import { evidenceExportRoutes } from '../../shared/http/routes/evidence-exports';
import { withdrawalRoutes } from '../../shared/http/routes/withdrawals';
import { created, ok } from '../../shared/http/operation';

const exportTypes = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' };

export const handler = createGroupHandler('consent', { ...consentRoutes, ...withdrawalRoutes, ...evidenceExportRoutes }, {
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
      }),
    ),
  getConsentSettings: async ({ caller }) => ok(await readConsentSettings(caller.tenantId)),
  saveConsentSettings: async ({ caller, body }) => ok(await saveConsentSettings(caller.tenantId, body, caller.userId)),
  consentAnalytics: async ({ caller }) => ok(await consentAnalytics(caller.tenantId)),
  listConsentRecords: async ({ caller, query }) => ok(await listRecords(caller.tenantId, query)),
  consentStatus: async ({ caller, params }) => ok(await statusByHash(caller.tenantId, params.hash)),
  consentByExternalId: async ({ caller, params }) => ok(await recordsByExternalId(caller.tenantId, params.externalId)),
  consentProof: async ({ caller, params }) => ok(await proofOf(caller.tenantId, params.id)),
  withdrawConsent: async ({ caller, body }) => ok(await withdrawForPrincipal(caller.tenantId, caller.userId, body)),
  createWithdrawalToken: async ({ caller, body }) => created(await createWithdrawalToken(caller.tenantId, body)),
  listComplianceTasks: async ({ caller, query }) => ok(await listComplianceTasks(caller.tenantId, query.status)),
  completeComplianceTask: async ({ caller, params }) => ok(await completeComplianceTask(caller.tenantId, params.id, caller.userId)),
  verifyProofChain: async ({ caller, query }) => ok(await verifyLog(caller.tenantId, query.from, query.to)),
  logCheckpoint: async ({ caller }) => ok(await latestCheckpoint(caller.tenantId)),
  logConsistency: async ({ caller, query }) => ok(await consistencyBetween(caller.tenantId, query.from, query.to)),
  createEvidencePack: async ({ caller, body, query }) => {
    const pack = await buildEvidencePack(caller.tenantId, body, clock.now());
    return query.format === 'html' ? { serialized: renderPackPage(pack), headers: packPageHeaders(pack) } : ok({ pack });
  },
  exportConsentRecords: async ({ caller, query }) => {
    const page = await exportRecords(caller.tenantId, query, clock.now());
    return {
      serialized: page.body,
      headers: {
        'Content-Type': exportTypes[query.format],
        'Cache-Control': 'no-store',
        'X-Export-Records': String(page.count),
        ...(page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {}),
        ...(page.estimatedTotal === null ? {} : { 'X-Export-Total': String(page.estimatedTotal) }),
      },
    };
  },
});
