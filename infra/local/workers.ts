import { drainOutbox } from '../../shared/events/drain';
import { describeError, log } from '../../shared/log';

/**
 * The local stand-in for the stream and queue triggers: a loop that runs the same drain
 * function the outbox Lambda runs on DynamoDB Streams in AWS.
 */
export const startWorkers = (intervalMs = 500) => {
  let running = true;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      while (running && (await drainOutbox('MAIL')) > 0);
    } catch (error) {
      log.error('outbox drain failed; retrying', describeError(error));
    }
  };
  const timer = setInterval(() => {
    current = current.then(tick);
  }, intervalMs);
  return {
    stop: async () => {
      running = false;
      clearInterval(timer);
      await current;
    },
  };
};
