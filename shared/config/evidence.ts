import { env, intFromEnv } from './env';

/** The evidence log's signed checkpoints, their archive, and evidence packs. */
export const evidenceConfig = {
  /**
   * Where signed checkpoints are archived: an S3 bucket with Object Lock in compliance mode in
   * AWS (infra/data.ts), the emulator's bucket of the same name locally.
   */
  get checkpointBucket(): string {
    return env('CHECKPOINT_BUCKET') ?? 'consent-service-checkpoints';
  },
  /** Days an archived checkpoint is locked (compliance mode: nobody, root included, can shorten it). */
  get checkpointRetentionDays(): number {
    return intFromEnv('CHECKPOINT_RETENTION_DAYS', 3650);
  },
  /** A tenant's log is signed at most this often while it grows (the 10 s). */
  get checkpointIntervalSeconds(): number {
    return intFromEnv('CHECKPOINT_INTERVAL_SECONDS', 10);
  },
  /**
   * How long POST /consent/evidence-packs waits, at most, for a signed checkpoint to cover the
   * pack's newest entries (asking the stream function for one once one is due:
   * shared/evidence/checkpoint-request.ts), so that a pack made seconds after a write is normally
   * fully covered; 0 never waits. A few seconds: the evidence function's timeout (15 s) must also
   * hold building the pack.
   */
  get evidencePackWaitSeconds(): number {
    return intFromEnv('EVIDENCE_PACK_WAIT_SECONDS', 5);
  },
};
