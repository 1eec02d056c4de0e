import { clock } from '../../shared/clock';
import { sweepChildren } from '../../shared/children/sweeper';
import { log } from '../../shared/log';
import { sweepRetentionPasses } from '../../shared/retention/sweeper';
import { sweepRightsDue } from '../../shared/rights/sweeper';

/**
 * Scheduled (every 5 minutes, infra/functions.ts sweeperScheduleMinutes): expires unconfirmed rights requests and mails the DPO's reminders
 * and overdue notices, each once; and the children's sweeps (shared/children/sweeper.ts): guardian
 * requests unanswered for 7 days expire, children whose majority date came are announced; and the
 * retention sweep (shared/retention/sweeper.ts): notices, cancellations and expiries. The retention
 * sweep's passes stop before the function's timeout would cut one (a large day goes on at the next
 * run); without a Lambda context (the local workers) it runs until a pass moves no one.
 */
export const handler = async (_event?: unknown, context?: { getRemainingTimeInMillis(): number }): Promise<{ moved: number; children: number; retention: number }> => {
  let moved = 0;
  for (let step = await sweepRightsDue(); step > 0; step = await sweepRightsDue()) moved += step;
  const children = await sweepChildren();
  const deadline = context ? clock.now().getTime() + context.getRemainingTimeInMillis() : undefined;
  const retention = await sweepRetentionPasses({ deadline });
  if (retention.stoppedForDeadline) log.info('retention sweep stopped before the function timeout; the next scheduled run goes on', { moved: retention.moved, passes: retention.passes });
  return { moved, children, retention: retention.moved };
};
