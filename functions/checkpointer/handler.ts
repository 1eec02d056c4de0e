import { signDueCheckpoints } from '../../shared/evidence/checkpointer';
import { log } from '../../shared/log';

/** Scheduled every minute: signs (and archives) a checkpoint for every tenant whose log grew. */
export const handler = async (): Promise<{ signed: number }> => {
  const signed = await signDueCheckpoints();
  if (signed > 0) log.info('checkpoints signed', { signed });
  return { signed };
};
