import { clock } from '../../shared/clock';
import { exportRecords } from '../../shared/consent/export';
import { documentAnswer } from '../../shared/documents/answer';
import { packDocument } from '../../shared/evidence-pack/page';
import { buildEvidencePack } from '../../shared/evidence-pack/pack';
import { consistencyBetween, latestCheckpoint } from '../../shared/evidence/proofs';
import { verificationKeys } from '../../shared/evidence/signers';
import { verifyLog } from '../../shared/evidence/verify';
import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { evidenceExportRoutes } from '../../shared/http/routes/evidence-exports';
import { evidenceLogRoutes } from '../../shared/http/routes/evidence-log';

const exportTypes = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' };

/**
 * What a DPO or a verifier asks of the evidence: the log's verification, checkpoint, consistency
 * proofs and public keys, evidence packs and bulk exports. The only routes that need the
 * checkpoint archive (S3) and the log signing key (KMS), kept apart so the record path's
 * functions load neither.
 */
export const handler = createGroupHandler('evidence', { ...evidenceLogRoutes, ...evidenceExportRoutes }, {
  verifyProofChain: async ({ caller, query }) => ok(await verifyLog(caller.tenantId, query.from, query.to)),
  logCheckpoint: async ({ caller }) => ok(await latestCheckpoint(caller.tenantId)),
  logConsistency: async ({ caller, query }) => ok(await consistencyBetween(caller.tenantId, query.from, query.to)),
  logKeys: async () => ({ headers: { 'Cache-Control': 'public, max-age=300' }, bareJson: await verificationKeys() }),
  createEvidencePack: async ({ caller, body, query }) => {
    const pack = await buildEvidencePack(caller.tenantId, body);
    return query.format === 'json' ? ok({ pack }) : documentAnswer(await packDocument(pack), `evidence-pack-${pack.principalHash.slice(0, 12)}`, true);
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
