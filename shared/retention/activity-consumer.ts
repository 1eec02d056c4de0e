import { recordItemType, recordOf } from '../consent/record-item';
import { tenantOfChange, type StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { touchActivity, type Activity } from './activity';

/** A new consent record or withdrawal is the principal approaching the tenant (rule 8(1)): her activity, at its own time. */
const activityOf = (change: StreamChange): Activity | undefined => {
  const image = change.newImage;
  if (!image) return undefined;
  if (image.type === recordItemType) {
    const record = recordOf(image);
    return { identifierHash: record.dataPrincipalHash, at: record.createdAt };
  }
  const at = typeof image.withdrawnAt === 'string' ? image.withdrawnAt : image.createdAt;
  return typeof image.dataPrincipalHash === 'string' && typeof at === 'string' ? { identifierHash: image.dataPrincipalHash, at } : undefined;
};

/**
 * Last activity from the stream, so recording a consent or a withdrawal stays the writes it was.
 * Idempotent (a redelivered batch finds the day already written) and coalesced: a principal's
 * many decisions of one day are one write.
 */
export const activityConsumer: StreamConsumer = {
  name: 'principal activity',
  itemTypes: [recordItemType, 'WithdrawalRecord'],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    for (const change of changes) {
      const [activity, tenantId] = [activityOf(change), tenantOfChange(change)];
      if (activity && tenantId) await touchActivity(tenantId, activity, { reindex: true });
    }
  },
};
