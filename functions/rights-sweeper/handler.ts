import { sweepRightsDue } from '../../shared/rights/sweeper';

/** Scheduled (every 15 minutes): expires unconfirmed rights requests and mails the DPO's reminders and overdue notices, each once. */
export const handler = async (): Promise<{ moved: number }> => {
  let moved = 0;
  for (let step = await sweepRightsDue(); step > 0; step = await sweepRightsDue()) moved += step;
  return { moved };
};
