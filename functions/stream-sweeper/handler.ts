import { clock } from '../../shared/clock';
import { log } from '../../shared/log';
import { sweepStreamLeftovers } from './sweep';

/** Scheduled every minute: retries what the stream's consumers parked for one tenant (outbox items, unfinished withdrawals). */
export const handler = async () => {
  const swept = await sweepStreamLeftovers(clock.now());
  if (swept.mails + swept.events + swept.withdrawals > 0) log.info('stream leftovers handed on', swept);
  return swept;
};
