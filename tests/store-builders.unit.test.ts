import { describe, expect, it } from 'vitest';
import { activePointerDelete, archiveUpdate, draftDelete, publicWithdrawalUrlUpdate, withdrawalUrlUpdate } from '../shared/notices/change-store';
import { noticeKeys } from '../shared/notices/keys';
import type { Notice } from '../shared/notices/notice';
import { consentKeys, recordShards } from '../shared/consent/keys';
import type { ConsentRecord } from '../shared/consent/record';
import { activeRecords, countedRecords, recordRanges, reservationUpdate } from '../shared/consent/store';
import { taskDoneUpdate, tasksQuery } from '../shared/consent/task-store';
import { recordWithdrawalUpdate, withdrawalCompleteUpdate } from '../shared/consent/withdrawal-store';
import { checkpointPut, headCheckpointUpdate, leaveUnsignedItems } from '../shared/evidence/checkpoint-store';
import { logKeys } from '../shared/evidence/log-keys';
import { releasePlanCount } from '../shared/tenants/plan-limits';
import { tenantKeys } from '../shared/tenants/keys';
import { newTimeOrderedId } from '../shared/ids';
import { chunkOf } from '../shared/rate-limit/limiter';
import { volumeChunkOf } from '../shared/consent/monthly-volume';
import { wordsKeys } from '../shared/words/keys';
import { headUnchanged, WordsMovedError } from '../shared/words/store';

/** The request builders the domain stores send: checked offline, without an engine. */
describe('releasePlanCount', () => {
  it('takes one off the named counter of the tenant, unconditionally', () => {
    expect(releasePlanCount('t1', 'noticeCount').Update).toMatchObject({
      Key: tenantKeys.tenant('t1'),
      UpdateExpression: 'ADD #count :minusOne',
      ExpressionAttributeNames: { '#count': 'noticeCount' },
      ExpressionAttributeValues: { ':minusOne': -1 },
    });
    expect(releasePlanCount('t1', 'noticeCount').Update!.ConditionExpression).toBeUndefined();
  });
});

describe('consent withdrawal builders', () => {
  const record = { tenantId: 't1', recordId: 'r1', createdAt: '2025-01-01T00:00:00.000Z', withdrawalVersion: 0 } as ConsentRecord;

  it('moves a fully withdrawn record into the withdrawn status and withdrawal-time ranges, from a never-withdrawn state', () => {
    const next = { withdrawnPurposes: ['p1'], isWithdrawn: true, isPartiallyWithdrawn: false, withdrawnAt: '2025-02-01T00:00:00.000Z' };
    const { Update } = recordWithdrawalUpdate(record, next, 'w1');
    expect(Update!.Key).toEqual(consentKeys.record('t1', 'r1'));
    expect(Update!.ConditionExpression).toBe('attribute_not_exists(withdrawalVersion) OR withdrawalVersion = :version');
    expect(Update!.UpdateExpression).toContain('GSI4PK = :withdrawnPk');
    expect(Update!.ExpressionAttributeValues).toMatchObject({
      ':statusPk': consentKeys.statusPartition('t1', 'withdrawn'),
      ':withdrawnPk': consentKeys.withdrawnPartition('t1'),
      ':withdrawal': 'w1',
      ':version': 0,
      ':full': true,
    });
  });

  it('conditions a partial withdrawal on the version read, without a withdrawal-time entry', () => {
    const next = { withdrawnPurposes: ['p1'], isWithdrawn: false, isPartiallyWithdrawn: true, withdrawnAt: null };
    const { Update } = recordWithdrawalUpdate({ ...record, withdrawalVersion: 3 }, next, 'w2');
    expect(Update!.ConditionExpression).toBe('withdrawalVersion = :version');
    expect(Update!.UpdateExpression).not.toContain('GSI4PK');
    expect(Update!.ExpressionAttributeValues).toMatchObject({ ':statusPk': consentKeys.statusPartition('t1', 'partial'), ':version': 3 });
    expect(Update!.ExpressionAttributeValues).not.toHaveProperty(':withdrawnPk');
  });

  it('completes a withdrawal only from IN_PROGRESS, leaving the pending index', () => {
    expect(withdrawalCompleteUpdate('t1', 'w1')).toMatchObject({
      Key: consentKeys.withdrawal('t1', 'w1'),
      UpdateExpression: 'SET #state = :complete REMOVE GSI1PK, GSI1SK',
      ConditionExpression: '#state = :inProgress',
      ExpressionAttributeValues: { ':complete': 'COMPLETE', ':inProgress': 'IN_PROGRESS' },
    });
  });
});

describe('compliance task builders', () => {
  it('reads OVERDUE as the OPEN range due before now, and OPEN as due from now', () => {
    expect(tasksQuery('t1', 'OPEN', { before: 'NOW' })).toEqual({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :due',
      ExpressionAttributeValues: { ':pk': consentKeys.taskStatePartition('t1', 'OPEN'), ':due': 'NOW' },
    });
    expect(tasksQuery('t1', 'OPEN', { from: 'NOW' }).KeyConditionExpression).toBe('GSI2PK = :pk AND GSI2SK >= :due');
    expect(tasksQuery('t1', 'DONE')).toEqual({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': consentKeys.taskStatePartition('t1', 'DONE') } });
  });

  it('completes only an existing OPEN task and moves it to the DONE range', () => {
    expect(taskDoneUpdate('t1', 'k1', 'AT', 'u1')).toMatchObject({
      Key: consentKeys.task('t1', 'k1'),
      ConditionExpression: 'attribute_exists(PK) AND #state = :open',
      ExpressionAttributeValues: { ':done': 'DONE', ':open': 'OPEN', ':now': 'AT', ':actor': 'u1', ':pk': consentKeys.taskStatePartition('t1', 'DONE') },
      ReturnValues: 'ALL_NEW',
    });
  });
});

describe('consent record ranges and volume', () => {
  it('reads active records as the creation range without a withdrawal status, others from the status index', () => {
    const active = activeRecords('t1');
    // Only counted records: a child's decision not in force (cs) is not in the counters, so not in the list;
    // a record whose retention lapsed (cs EXPIRED) was counted and never withdrawn, so it is.
    expect(active.expression).toBe('(attribute_not_exists(cs) OR cs = :expired) AND (attribute_not_exists(GSI2PK) OR GSI2PK = :active)');
    expect(countedRecords()).toEqual({ expression: '(attribute_not_exists(cs) OR cs = :expired)', values: { ':expired': 'EXPIRED' } });
    expect(active.values).toEqual({ ':expired': 'EXPIRED', ':active': consentKeys.statusPartition('t1', 'active') });
    expect(recordRanges.byStatus('t1', 'partial', false)).toEqual({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': consentKeys.statusPartition('t1', 'partial') },
      ScanIndexForward: false,
    });
    expect(recordRanges.byWithdrawal('t1', true)).toMatchObject({ IndexName: 'GSI4', ExpressionAttributeValues: { ':pk': consentKeys.withdrawnPartition('t1') } });
    expect(recordRanges.byChainPosition('t1', 1, 90).ExpressionAttributeValues).toEqual({
      ':pk': consentKeys.chainPartition('t1'),
      ':from': consentKeys.chainPosition(1),
      ':to': consentKeys.chainPosition(90),
    });
  });

  it('reserves monthly volume only while the reserved total stays within the limit', () => {
    expect(reservationUpdate('t1', '202501', 10, 100)).toMatchObject({
      Key: consentKeys.monthlyVolume('t1', '202501'),
      UpdateExpression: 'ADD reserved :tokens',
      ConditionExpression: 'attribute_not_exists(reserved) OR reserved <= :most',
      ExpressionAttributeValues: { ':tokens': 10, ':most': 90 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });
});

describe('evidence checkpoint builders', () => {
  const checkpoint = { treeSize: 7, rootHash: 'ab', signedAt: 'AT', keyId: 'k', note: 'n' };

  it('stores the checkpoint by its size', () => {
    expect(checkpointPut('t1', checkpoint).Item).toMatchObject({ ...logKeys.checkpoint('t1', 7), type: 'LogCheckpoint', treeSize: 7 });
  });

  it('never replaces a larger checkpoint, and leaves the unsigned index only while no batch follows the signed size', () => {
    expect(headCheckpointUpdate('t1', checkpoint)).toMatchObject({
      Key: logKeys.head('t1'),
      UpdateExpression: 'SET checkpoint = :checkpoint',
      ConditionExpression: 'attribute_not_exists(checkpoint) OR checkpoint.treeSize < :size',
      ExpressionAttributeValues: { ':checkpoint': checkpoint, ':size': 7 },
    });
    const [head, noLaterBatch] = leaveUnsignedItems('t1', 7, checkpoint);
    expect(head!.item.Update).toMatchObject({ UpdateExpression: 'SET checkpoint = :checkpoint REMOVE GSI1PK, GSI1SK, unsignedSince', ConditionExpression: 'attribute_not_exists(checkpoint) OR checkpoint.treeSize < :size' });
    expect(noLaterBatch!.item.ConditionCheck).toMatchObject({ Key: logKeys.batch('t1', 7), ConditionExpression: 'attribute_not_exists(PK)' });
    expect(leaveUnsignedItems('t1', 7)[0]!.item.Update).toMatchObject({ UpdateExpression: 'REMOVE GSI1PK, GSI1SK, unsignedSince' });
  });
});

describe('notice change builders', () => {
  const notice = { tenantId: 't1', noticeId: 'n1', status: 'PUBLISHED', revision: 4 } as Notice;

  it('deletes a notice only while DRAFT, and archives one only while PUBLISHED', () => {
    expect(draftDelete(notice).Delete).toMatchObject({ Key: noticeKeys.notice('t1', 'n1'), ConditionExpression: '#status = :draft', ExpressionAttributeValues: { ':draft': 'DRAFT' } });
    expect(archiveUpdate('t1', 'n1', 'AT').Update).toMatchObject({
      Key: noticeKeys.notice('t1', 'n1'),
      ConditionExpression: '#status = :published',
      ExpressionAttributeValues: { ':archived': 'ARCHIVED', ':published': 'PUBLISHED', ':now': 'AT' },
    });
    expect(activePointerDelete('t1', 'n1').Delete).toMatchObject({ Key: noticeKeys.activePointer('t1'), ConditionExpression: 'noticeId = :notice', ExpressionAttributeValues: { ':notice': 'n1' } });
  });

  it('sets the withdrawal URL only from the status and revision read, and on the public document only while it is this notice', () => {
    expect(withdrawalUrlUpdate(notice, 'https://x.example/w', 'AT').Update).toMatchObject({
      ConditionExpression: '#status = :status AND revision = :revision',
      ExpressionAttributeValues: { ':url': 'https://x.example/w', ':status': 'PUBLISHED', ':revision': 4, ':at': 'AT' },
    });
    expect(publicWithdrawalUrlUpdate('t1', 'n1', null).Update).toMatchObject({
      Key: noticeKeys.publicDocument('t1'),
      UpdateExpression: 'SET #document.withdrawalUrl = :url',
      ConditionExpression: 'noticeId = :notice',
      ExpressionAttributeValues: { ':url': null, ':notice': 'n1' },
    });
  });
});

describe('record shards', () => {
  it('spreads a tenant\'s records evenly over sixteen partitions and reads the tenant back from either layout', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 16_000; index += 1) {
      const { PK } = consentKeys.record('t1', newTimeOrderedId(new Date(1_800_000_000_000 + index)));
      counts.set(PK, (counts.get(PK) ?? 0) + 1);
    }
    expect(counts.size).toBe(recordShards);
    // Each near 1,000 (binomial spread, σ ≈ 31): no shard takes more than 1/14 of the writes.
    for (const count of counts.values()) expect(count).toBeLessThan(16_000 / 14);
    expect([...counts.keys()].map(consentKeys.tenantOfRecordPartition)).toEqual(Array(16).fill('t1'));
    expect(consentKeys.tenantOfRecordPartition('TENANT#t2')).toBe('t2');
    expect(consentKeys.tenantOfRecordPartition('TENANT#t2#APIKEYS')).toBeUndefined();
    expect(consentKeys.isLegacyRecordPartition(consentKeys.legacyRecord('t1', 'r').PK)).toBe(true);
  });
});

describe('counter chunks for a tenant at 10,000 consents a second', () => {
  it('reserve a tenth of a small limit, at most RATE_LIMIT_CHUNK, and a thousandth of a large one', () => {
    const rule = (limit: number) => ({ name: 'r', limit, windowSeconds: 60 });
    expect([3, 25, 1000, 5000].map((limit) => chunkOf(rule(limit)))).toEqual([1, 2, 10, 10]);
    // 600,000 a minute (10,000 a second): 600 at a time, about 17 counter writes a second.
    expect(chunkOf(rule(600_000))).toBe(600);
    expect(volumeChunkOf(1_000_000)).toBe(20);
    expect(volumeChunkOf(100_000_000)).toBe(1000);
  });
});

describe("the words head's condition for a projection of the tenant's words made elsewhere", () => {
  it('holds only while the head is at the revision read (or still absent), failing as the words moving', () => {
    const absent = headUnchanged('t1', 0);
    expect(absent.item.ConditionCheck).toMatchObject({ Key: wordsKeys.head('t1'), ConditionExpression: 'attribute_not_exists(PK)' });
    const read = headUnchanged('t1', 5);
    expect(read.item.ConditionCheck).toMatchObject({ Key: wordsKeys.head('t1'), ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': 5 } });
    expect(read.onConditionFailure?.()).toBeInstanceOf(WordsMovedError);
  });
});
