import { clock } from '../../shared/clock';
import { exportRecords } from '../../shared/consent/export';
import { documentAnswer } from '../../shared/documents/answer';
import { packDocument } from '../../shared/evidence-pack/page';
import { buildEvidencePack } from '../../shared/evidence-pack/pack';
import { consistencyBetween, latestCheckpoint } from '../../shared/evidence/proofs';
import { verificationKeys } from '../../shared/evidence/signers';
import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { evidenceExportRoutes } from '../../shared/http/routes/evidence-exports';
import { evidenceLogRoutes } from '../../shared/http/routes/evidence-log';

const exportTypes = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' };

/**
 * What a DPO or a verifier asks of the evidence: the log's checkpoint, consistency proofs and
 * public keys, evidence packs and bulk exports. Packs are signed with the log signing key (KMS),
 * kept apart so the record path's functions do not load it. Neither the checkpoint archive (S3) nor
 * the signing of checkpoints is here: a pack asks the stream for the checkpoint it waits for
 * (shared/evidence/checkpoint-request.ts), and the log's verification, which reads the archive, is
 * the group evidence-verify.
 */
export const handler = createGroupHandler('evidence', { ...evidenceLogRoutes, ...evidenceExportRoutes }, {
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
