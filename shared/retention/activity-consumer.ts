import { recordItemType, recordOf } from '../consent/record-item';
import { rightsRequestItemType } from '../rights/keys';
import { tenantOfChange, type StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { touchActivity, type Activity } from './activity';

/**
 * A rights request counts from the moment it reaches the tenant as the principal's own: SUBMITTED,
 * confirmed on her link (a public request, which anyone could make for any address, counts only
 * once its mailbox's owner confirms it) or logged by the team that she contacted.
 */
const submittedRequest = (change: StreamChange): Activity | undefined => {
  const [image, before] = [change.newImage!, change.oldImage];
  if (image.status !== 'SUBMITTED' || before?.status === 'SUBMITTED') return undefined;
  return typeof image.principalHash === 'string' && typeof image.submittedAt === 'string' ? { identifierHash: image.principalHash, at: image.submittedAt } : undefined;
};

/**
 * The principal approaching the tenant or exercising her rights (rule 8(1)), at its own time: a
 * new consent record, a withdrawal, a submitted rights request.
 */
const activityOf = (change: StreamChange): Activity | undefined => {
  const image = change.newImage;
  if (!image) return undefined;
  if (image.type === rightsRequestItemType) return submittedRequest(change);
  // A record or a withdrawal counts when it is made; later changes (a withdrawal applied, an expiry) are not her.
  if (change.eventName !== 'INSERT') return undefined;
  if (image.type === recordItemType) {
    const record = recordOf(image);
    return { identifierHash: record.dataPrincipalHash, at: record.createdAt };
  }
  const at = typeof image.withdrawnAt === 'string' ? image.withdrawnAt : image.createdAt;
  return typeof image.dataPrincipalHash === 'string' && typeof at === 'string' ? { identifierHash: image.dataPrincipalHash, at } : undefined;
};

/**
 * Last activity from the stream, so recording a consent or a withdrawal, or submitting a rights
 * request, stays the writes it was. Idempotent (a redelivered batch finds the day already written)
 * and coalesced: a principal's many decisions of one day are one write. A decision may start a
 * CONSENT or WITHDRAWAL clock, so it also puts her back in the due index; a request only moves
 * her last activity.
 */
export const activityConsumer: StreamConsumer = {
  name: 'principal activity',
  itemTypes: [recordItemType, 'WithdrawalRecord', rightsRequestItemType],
  eventNames: ['INSERT', 'MODIFY'],
  handle: async (changes) => {
    for (const change of changes) {
      const [activity, tenantId] = [activityOf(change), tenantOfChange(change)];
      if (activity && tenantId) await touchActivity(tenantId, activity, { reindex: change.newImage?.type !== rightsRequestItemType });
    }
  },
};
