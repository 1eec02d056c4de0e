import { env, intFromEnv } from './env';

/** Telling others: webhook deliveries, mail, and breach intimations. */
export const deliveryConfig = {
  /** Base of the retry schedule: attempt n+1 waits base × 2^(n-1) (the spec's 5 s, 10 s, 20 s, 40 s). */
  get webhookRetryBaseMs(): number {
    return intFromEnv('WEBHOOK_RETRY_BASE_MS', 5000);
  },
  get webhookTimeoutMs(): number {
    return intFromEnv('WEBHOOK_TIMEOUT_MS', 10_000);
  },
  /** Sender of confirmation mails; must be a verified SES identity in AWS. */
  get mailFrom(): string {
    return env('MAIL_FROM') ?? 'no-reply@consent-service.local';
  },
  /**
   * Principals per intimation batch (and per breach.principals page): one SQS message and one
   * logged document each. 500 by default, the page size; tests lower it to exercise batching.
   */
  get breachBatchSize(): number {
    return Math.min(500, Math.max(1, intFromEnv('BREACH_INTIMATION_BATCH_SIZE', 500)));
  },
  /**
   * Rule 7 says the Board is intimated "without delay" and names no number; a filing later than
   * this many hours after awareAt is recorded as late (docs/breaches.md).
   */
  get breachBoardIntimationLateHours(): number {
    return intFromEnv('BREACH_BOARD_INTIMATION_LATE_HOURS', 6);
  },
  /** An intimation without progress for this long may be resumed by calling it again (its lost messages re-queued). */
  get breachIntimationStallSeconds(): number {
    return intFromEnv('BREACH_INTIMATION_STALL_SECONDS', 300);
  },
};
