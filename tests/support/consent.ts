import { createHash, createHmac } from 'node:crypto';
import { clock } from '../../shared/clock';
import { BatchWriteCommand } from '../../shared/db/commands';
import { proofHashOf } from '../../shared/consent/proof';
import type { ConsentEvidence, ConsentRecord } from '../../shared/consent/record';
import { recordPut } from '../../shared/consent/store';
import { db, tableName } from '../../shared/db/client';
import type { Call } from './api';
import { createNotice, createPurpose, publish } from './notices';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What a tenant's server sends the page for cms.identify, or sdk-record: the hash signed with a
 * secret key at a time (docs/security.md): HMAC-SHA256 of `<identifierHash>.<identifierSignedAt>`.
 * Signed "now" by the service's clock unless the test says when.
 */
export const signedIdentity = (secretKey: string, identifierHash: string, identifierSignedAt = Math.floor(clock.now().getTime() / 1000)) => ({
  identifierHash,
  identifierSignature: createHmac('sha256', secretKey).update(`${identifierHash}.${identifierSignedAt}`).digest('hex'),
  identifierSignedAt,
});

/** A tenant's published notice with two purposes (the first required), ready for consent. */
export const publishedNotice = async (call: Call, token: string) => {
  const required = await createPurpose(call, token, { name: 'Order processing', dataCategories: ['email', 'address'] });
  const optional = await createPurpose(call, token, { name: 'Marketing', dataCategories: ['email'] });
  const noticeId = await createNotice(call, token, [required, optional]);
  const published = await publish(call, token, noticeId);
  if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return { noticeId, required, optional };
};

export const recordConsent = (call: Call, token: string, body: Record<string, unknown>) =>
  call('POST', '/api/v1/consent/record', { token, body });

/**
 * Stores records exactly as the consent store writes them (the items of its own recordPut), 25 to a
 * BatchWriteItem, eight at a time: for tests that need thousands. One conditional put each, as
 * recording does, took a minute or more for 10,000 on a loaded two-core machine; this, seconds.
 */
export const storeRecords = async (records: ConsentRecord[]): Promise<void> => {
  const batches: ConsentRecord[][] = [];
  for (let at = 0; at < records.length; at += 25) batches.push(records.slice(at, at + 25));
  for (let at = 0; at < batches.length; at += 8) {
    await Promise.all(
      batches.slice(at, at + 8).map(async (batch) => {
        let pending: unknown[] | undefined = batch.map((record) => ({ PutRequest: { Item: recordPut(record).Item } }));
        while (pending?.length) pending = (await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }))).UnprocessedItems?.[tableName()];
      }),
    );
  }
};

/** A record as recording builds one (proof format 2, its hash computed), for storeRecords. */
export const builtRecord = (evidence: Omit<ConsentEvidence, 'chainSeq' | 'prevProofHash'>, extra: Partial<ConsentRecord> = {}): ConsentRecord => ({
  ...evidence,
  proofVersion: 2,
  proofHash: proofHashOf(evidence),
  noticeTitle: 'Privacy notice',
  lineageId: evidence.noticeId,
  channel: 'SDK',
  decision: null,
  requiredPurposesDeclined: [],
  withdrawnPurposes: [],
  withdrawnAt: null,
  isWithdrawn: false,
  isPartiallyWithdrawn: false,
  withdrawalVersion: 0,
  ...extra,
});
