import { verifyLog } from '../../shared/evidence/verify';
import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { evidenceVerifyRoutes } from '../../shared/http/routes/evidence-verify';

/**
 * The log's verification against the write-once checkpoint archive: the only HTTP function that
 * carries the S3 client (reading archived notes, never writing one), and no signing key, only the
 * checkpoint key's public half.
 */
export const handler = createGroupHandler('evidence-verify', evidenceVerifyRoutes, {
  verifyProofChain: async ({ caller, query }) => ok(await verifyLog(caller.tenantId, query.from, query.to)),
});
