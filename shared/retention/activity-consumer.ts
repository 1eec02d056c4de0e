import { recordItemType, recordOf } from '../consent/record-item';
import { rightsRequestItemType } from '../rights/keys';
import { tenantOfChange, type StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { listPurposes } from '../purposes/store';
import { touchActivity, type Activity } from './activity';
import { getSettingsItem } from '../consent/settings-store';
import { markRetainingPurposes, retentionInForce, retentionInForceOf, retentionSettingsOf } from './settings';

/**
 * The principal approaching the tenant or exercising her rights (rule 8(1)), at its own time: a
 * new consent record or withdrawal.
 */
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
 * Whether a tenant's decisions count, read once per tenant and stream batch and never cached, so a
 * tenant that sets a retention is obeyed from its next decision: the settings item alone (one
 * strongly consistent GetItem, 1 RRU), which holds the Third Schedule class and marks the purposes
 * with a retention in their own writes. A tenant whose marks may be incomplete (purposes written
 * before the marks existed) is decided on its purposes, read consistently, and marked from them
 * once. A tenant with no retention pays the one read a batch instead of 2 WRU a decision.
 */
const retentionInForceNow = async (tenantId: string): Promise<boolean> => {
  const item = await getSettingsItem(tenantId);
  const known = retentionInForceOf(item);
  if (known !== undefined) return known;
  const purposes = await listPurposes(tenantId, { consistent: true });
  await markRetainingPurposes(tenantId, purposes);
  return retentionInForce(retentionSettingsOf(item), purposes);
};

/**
 * Last activity from the stream, so recording a consent or a withdrawal stays the writes it was.
 * Idempotent (a redelivered batch finds the day already written) and coalesced: a principal's
 * many decisions of one day are one write. A decision may start a CONSENT or WITHDRAWAL clock, so
 * it also puts her back in the due index. Only for a tenant with a retention in force (the Third
 * Schedule or a purpose's retention): for others nothing can fall due, and the sweep would only
 * take her out of the index again.
 */
export const activityConsumer: StreamConsumer = {
  name: 'principal activity',
  itemTypes: [recordItemType, 'WithdrawalRecord'],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    const inForce = new Map<string, Promise<boolean>>();
    const applies = (tenantId: string) => {
      if (!inForce.has(tenantId)) inForce.set(tenantId, retentionInForceNow(tenantId));
      return inForce.get(tenantId)!;
    };
    for (const change of changes) {
      const [activity, tenantId] = [activityOf(change), tenantOfChange(change)];
      if (activity && tenantId && (await applies(tenantId))) await touchActivity(tenantId, activity, { reindex: true });
    }
  },
};

/**
 * A rights request counts from the moment it reaches the tenant as the principal's own: SUBMITTED,
 * confirmed on her link (a public request, which anyone could make for any address, counts only
 * once its mailbox's owner confirms it) or logged by the team she contacted. In AWS only requests
 * changed to or inserted as SUBMITTED reach it (infra/stack.ts); a later change of a submitted
 * request (an asset's state) is not her.
 */
const submittedRequest = (change: StreamChange): Activity | undefined => {
  const [image, before] = [change.newImage, change.oldImage];
  if (image?.status !== 'SUBMITTED' || before?.status === 'SUBMITTED') return undefined;
  return typeof image.principalHash === 'string' && typeof image.submittedAt === 'string' ? { identifierHash: image.principalHash, at: image.submittedAt } : undefined;
};

/** Her last activity from her submitted rights requests (only that: a request starts no CONSENT or WITHDRAWAL clock). */
export const rightsActivityConsumer: StreamConsumer = {
  name: 'principal activity (rights requests)',
  itemTypes: [rightsRequestItemType],
  eventNames: ['INSERT', 'MODIFY'],
  handle: async (changes) => {
    for (const change of changes) {
      const [activity, tenantId] = [submittedRequest(change), tenantOfChange(change)];
      if (activity && tenantId) await touchActivity(tenantId, activity);
    }
  },
};
