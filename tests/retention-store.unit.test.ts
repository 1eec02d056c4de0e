import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { retentionKeys } from '../shared/retention/keys';
import { entryMove, shardShare, sweepLimits } from '../shared/retention/sweeper';
import { dueQuery, filterTenantsMax, ShardTake } from '../shared/retention/due-index';
import { dayCountsQuery, dayCountsUpdate, entryCancel, entryPut, scheduleUpdate, taskInsert, taskReplace, tasksQuery, upcomingQuery, type ErasureTask, type Schedule } from '../shared/retention/store';
import { entryKeptDays, sweepKeys } from '../shared/retention/sweep-keys';
import { monthsOf, rangeOf } from '../shared/retention/upcoming';
import { newErasureTask } from '../shared/retention/erasures';
import type { DataAsset } from '../shared/data-map/data-map';

/** The retention store's request builders, offline. */
const hash = 'ab'.repeat(32);
const schedule: Schedule = { tenantId: 't1', identifierHash: hash, lastActivityAt: '2026-01-01T00:00:00.000Z', nextAt: '2026-02-01T00:00:00.000Z', state: 'SCHEDULED', dueAt: '2026-02-03T00:00:00.000Z', noticeSentAt: null, noticedDueAt: null, indexKey: `2026-02-01T00:00:00.000Z#t1#${hash}` };

describe('scheduleUpdate', () => {
  it('is conditional on her activity and her place in the due index as read, and moves her place with nextAt', () => {
    const named = scheduleUpdate(schedule, { state: 'NOTICE_SENT' }, ['cancelledAt'], '2026-02-03T00:00:00.000Z');
    expect(named.name).toBe('principal schedule');
    const update = named.item.Update!;
    expect(update.Key).toEqual(retentionKeys.activity('t1', hash));
    expect(update.ConditionExpression).toBe('lastActivityAt = :readActivity AND #indexKey = :readIndex');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':readActivity': schedule.lastActivityAt, ':readIndex': schedule.indexKey, ':s0': 'NOTICE_SENT', ':s1': '2026-02-03T00:00:00.000Z' });
    expect(update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1, #s2 = :s2, #s3 = :s3 REMOVE #r0');
    expect(update.ExpressionAttributeNames).toMatchObject({ '#s0': 'state', '#s1': 'nextAt', '#s2': 'GSI2PK', '#s3': 'GSI2SK', '#r0': 'cancelledAt' });
    expect(named.onConditionFailure!()).toBeInstanceOf(AppError);
  });

  it('takes her out of the due index when nothing is next, and asks for an absent index key when she had none', () => {
    const update = scheduleUpdate({ ...schedule, lastActivityAt: null, indexKey: null }, {}, [], null).item.Update!;
    expect(update.UpdateExpression).toBe('REMOVE #r0, #r1, #r2');
    expect(update.ConditionExpression).toBe('attribute_not_exists(lastActivityAt) AND attribute_not_exists(#indexKey)');
  });
});

describe('the due index and the upcoming entries', () => {
  it('queries one shard up to now, whatever follows the time in the sort key', () => {
    expect(dueQuery(3, '2026-02-01T00:00:00.000Z')).toEqual({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :now', ExpressionAttributeValues: { ':pk': 'RETDUE#3', ':now': '2026-02-01T00:00:00.000Z~' } });
  });

  it('leaves the tenants a pass no longer takes out of the next page, at most 100 in the filter', () => {
    const query = dueQuery(3, '2026-02-01T00:00:00.000Z', ['t1', 't2']);
    expect(query).toMatchObject({ FilterExpression: 'NOT #tenant IN (:x0, :x1)', ExpressionAttributeNames: { '#tenant': 'tenantId' }, ExpressionAttributeValues: { ':pk': 'RETDUE#3', ':x0': 't1', ':x1': 't2' } });
    const many = Array.from({ length: filterTenantsMax + 20 }, (_, index) => `t${index}`);
    const capped = dueQuery(0, '2026-02-01T00:00:00.000Z', many);
    expect(capped.FilterExpression!.split(',')).toHaveLength(filterTenantsMax);
    expect(Object.keys(capped.ExpressionAttributeValues)).toHaveLength(filterTenantsMax + 2);
  });

  it("keeps each tenant's share of a shard, oldest first, then excludes it; a tenant not taken is excluded at once", () => {
    const entry = (tenantId: string, index: number): Schedule => ({ ...schedule, tenantId, indexKey: `2026-02-01T00:00:0${index}.000Z#${tenantId}#${hash}` });
    const take = new ShardTake({ share: 2, keep: 5, accept: (tenantId) => tenantId !== 'other' });
    take.offer([entry('big', 0), entry('other', 1), entry('big', 2), entry('big', 3), entry('small', 4)]);
    expect(take.kept.map((kept) => kept.tenantId)).toEqual(['big', 'big', 'small']);
    expect(take.excluded).toEqual(['other', 'big']);
    // A tenant excluded past the filter's 100 is still dropped as its entries arrive; the pass stops at `keep`.
    take.offer([entry('big', 5), entry('a', 6), entry('b', 7), entry('c', 8)]);
    expect(take.kept.map((kept) => kept.tenantId)).toEqual(['big', 'big', 'small', 'a', 'b']);
    expect(take.full).toBe(true);
    expect(shardShare()).toBe(Math.ceil((2 * sweepLimits.tenantBudget) / 16));
  });

  it('keeps an entry in its tenant\'s partition of its due month, and a CANCELLED or EXPIRED one only for entryKeptDays', () => {
    const at = '2026-02-01T00:00:00.000Z';
    const live = entryPut('t1', { identifierHash: hash, purposeIds: ['p'], dueAt: '2026-02-03T00:00:00.000Z', noticeSentAt: null, state: 'SCHEDULED' }, at).item.Put!;
    expect(live.Item).toMatchObject({ PK: 'RETUP#t1#2026-02', SK: `2026-02-03T00:00:00.000Z#${hash}`, state: 'SCHEDULED' });
    expect(live.Item!.expiresAt).toBeUndefined();
    const expired = entryPut('t1', { identifierHash: hash, purposeIds: ['p'], dueAt: '2026-02-03T00:00:00.000Z', noticeSentAt: null, state: 'EXPIRED' }, at).item.Put!;
    expect(expired.Item!.expiresAt).toBe(Date.parse(at) / 1000 + entryKeptDays * 86_400);
    const cancel = entryCancel('t1', '2026-02-03T00:00:00.000Z', hash, at).item.Update!;
    expect(cancel).toMatchObject({ Key: sweepKeys.upcoming('t1', '2026-02-03T00:00:00.000Z', hash), ConditionExpression: 'attribute_exists(PK)', UpdateExpression: 'SET #state = :cancelled, cancelledAt = :at, expiresAt = :ttl' });
  });

  it('moves a live entry: the old one deleted only when its due time changed', () => {
    const at = '2026-02-01T00:00:00.000Z';
    const same = entryMove(schedule, { identifierHash: hash, purposeIds: ['p'], dueAt: schedule.dueAt!, noticeSentAt: at, state: 'NOTICE_SENT' }, at);
    expect(same.map((item) => Object.keys(item.item)[0])).toEqual(['Put']);
    const moved = entryMove(schedule, { identifierHash: hash, purposeIds: ['p'], dueAt: '2026-03-01T00:00:00.000Z', noticeSentAt: null, state: 'SCHEDULED' }, at);
    expect(moved.map((item) => Object.keys(item.item)[0])).toEqual(['Delete', 'Put']);
    expect(moved[0]!.item.Delete!.Key).toEqual(sweepKeys.upcoming('t1', schedule.dueAt!, hash));
    // An expired entry is history: never deleted by a later step.
    expect(entryMove({ ...schedule, state: 'EXPIRED' }, null, at)).toEqual([]);
  });

  it('lists one month of a tenant between from and to, a state as a filter', () => {
    const query = upcomingQuery('t1', '2026-02', '2026-02-01T00:00:00.000Z', '2026-02-28T00:00:00.000Z', 'CANCELLED', 50, undefined);
    expect(query).toMatchObject({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': 'RETUP#t1#2026-02', ':from': '2026-02-01T00:00:00.000Z', ':to': '2026-02-28T00:00:00.000Z~', ':state': 'CANCELLED' },
      FilterExpression: '#state = :state',
      Limit: 50,
    });
    expect(upcomingQuery('t1', '2026-02', 'a', 'b', undefined, 5, undefined).FilterExpression).toBeUndefined();
    expect(monthsOf('2025-12-31T00:00:00.000Z', '2026-02-01T00:00:00.000Z')).toEqual(['2025-12', '2026-01', '2026-02']);
  });

  it('refuses a range that ends before it starts, or spans more than 366 days, naming to', () => {
    expect(() => rangeOf({ from: '2026-02-02T00:00:00Z', to: '2026-02-01T00:00:00Z' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', fields: { to: expect.any(String) } }));
    expect(() => rangeOf({ from: '2026-01-01T00:00:00Z', to: '2027-01-03T00:00:00Z' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', fields: { to: expect.any(String) } }));
    expect(rangeOf({ from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' })).toEqual({ from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' });
  });

  it('adds a pass\'s counts to one item per tenant per day, read back as one Query of the range', () => {
    expect(dayCountsUpdate('t1', '2026-02-03', { due: 3, cancelled: 0, expired: 1 }).Update).toMatchObject({ Key: { PK: 'RETDAY#t1', SK: '2026-02-03' }, UpdateExpression: 'ADD #c0 :d0, #c1 :d1', ExpressionAttributeNames: { '#c0': 'due', '#c1': 'expired' } });
    expect(dayCountsQuery('t1', '2026-02-01', '2026-02-28').ExpressionAttributeValues).toEqual({ ':pk': 'RETDAY#t1', ':from': '2026-02-01', ':to': '2026-02-28' });
  });
});

describe('erasure tasks', () => {
  const asset = (assetId: string, purposeIds: string[]): DataAsset => ({ tenantId: 't1', assetId, name: `asset ${assetId}`, description: '', system: 'crm', location: 'IN', dataCategories: [], purposeIds, processorIds: [], retentionDays: null, revision: 1, createdAt: '', updatedAt: '' });

  it('lists the assets holding the run\'s purposes\' data, OPEN; none: RESOLVED at once', () => {
    const task = newErasureTask({ tenantId: 't1', runId: 'r1', at: '2026-02-03T00:00:00.000Z', purposeIds: ['p1'], principalCount: 2, assets: [asset('a1', ['p1', 'p2']), asset('a2', ['p2'])] });
    expect(task).toMatchObject({ id: 'r1', state: 'OPEN', assets: [{ assetId: 'a1', name: 'asset a1', system: 'crm', resolved: false }] });
    expect(newErasureTask({ tenantId: 't1', runId: 'r2', at: 'x', purposeIds: ['p3'], principalCount: 1, assets: [asset('a1', ['p1'])] })).toMatchObject({ state: 'RESOLVED', resolvedAt: 'x', assets: [] });
  });

  it('is made once per run, changed only over the version read, listed by state newest first', () => {
    const task: ErasureTask = newErasureTask({ tenantId: 't1', runId: 'r1', at: 'x', purposeIds: ['p1'], principalCount: 1, assets: [asset('a1', ['p1'])] });
    const insert = taskInsert(task);
    expect(insert.item.Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(PK)', Item: { PK: 'TENANT#t1', SK: 'RETERASURE#r1', GSI1PK: 'RETERASURE#t1#OPEN', GSI1SK: 'r1' } });
    const replace = taskReplace({ ...task, state: 'RESOLVED', version: 1 }, 0);
    expect(replace.item.Put).toMatchObject({ ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': 0 }, Item: { GSI1PK: 'RETERASURE#t1#RESOLVED', version: 1 } });
    expect(replace.onConditionFailure!().code).toBe('CONFLICT');
    expect(tasksQuery('t1', 'RESOLVED')).toEqual({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'RETERASURE#t1#RESOLVED' }, ScanIndexForward: false });
  });
});
