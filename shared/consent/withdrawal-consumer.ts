import type { StreamConsumer } from '../stream/consumer';
import { completeWithdrawal } from './withdrawal-apply';

/**
 * A new withdrawal is applied to all its records even if the request that committed it died
 * halfway. Applying is idempotent, so racing that request is harmless.
 */
export const withdrawalConsumer: StreamConsumer = {
  name: 'withdrawal completion',
  itemTypes: ['WithdrawalRecord'],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    for (const change of changes) {
      if (change.newImage) await completeWithdrawal(String(change.newImage.tenantId), String(change.newImage.withdrawalId));
    }
  },
  // Nothing to move: an unfinished withdrawal stays in the pending withdrawals' index, where the
  // completer (the stream sweeper in AWS, the local completer loop) finishes it apart from the stream.
  park: async () => undefined,
};
