import { sweepChildren } from '../../shared/children/sweeper';
import { sweepRetentionDue } from '../../shared/retention/sweeper';
import { sweepRightsDue } from '../../shared/rights/sweeper';

/**
 * Scheduled (every 15 minutes): expires unconfirmed rights requests and mails the DPO's reminders
 * and overdue notices, each once; and the children's sweeps (shared/children/sweeper.ts): guardian
 * requests unanswered for 7 days expire, children whose majority date came are announced; and the
 * retention sweep (shared/retention/sweeper.ts): notices, cancellations and expiries.
 */
export const handler = async (): Promise<{ moved: number; children: number; retention: number }> => {
  let moved = 0;
  for (let step = await sweepRightsDue(); step > 0; step = await sweepRightsDue()) moved += step;
  return { moved, children: await sweepChildren(), retention: await sweepRetentionDue() };
};
