import { completePendingWithdrawals } from '../../shared/consent/withdrawal-apply';
import { drainOutbox } from '../../shared/events/drain';
import type { OutboxKind } from '../../shared/events/keys';

/** Rounds of 25 items a sweep drains of each outbox kind at most, so one run stays within its function's timeout. */
const maxRounds = 8;

const drainKind = async (kind: OutboxKind): Promise<number> => {
  let handed = 0;
  for (let round = 0; round < maxRounds; round += 1) {
    const count = await drainOutbox(kind, 25);
    handed += count;
    if (count === 0) break;
  }
  return handed;
};

/**
 * What the stream's consumers left for a retry apart from the stream (functions/stream/consumers.ts):
 * outbox mails and events not handed on (their tenant's failure was parked, not thrown) and
 * withdrawals not finished. Run on a schedule in AWS (the stream sweeper); the local workers run
 * the same drains and completer in loops of their own. Parked log entries are the checkpointer's.
 */
export const sweepStreamLeftovers = async (now: Date) => ({
  mails: await drainKind('MAIL'),
  events: await drainKind('EVENT'),
  withdrawals: await completePendingWithdrawals({ olderThanMs: 60_000, now }),
});
