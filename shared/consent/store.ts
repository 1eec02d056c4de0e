import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type PutCommandInput, type QueryCommandInput, type UpdateCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import { ConflictError } from '../errors';
import type { NamedItem } from '../db/transact';
import { tenantPartition } from '../tenants/keys';
import { consentKeys, majorityShards, type DerivedStatus } from './keys';
import type { ConsentRecord, GuardianDecision } from './record';
import type { OnConditionFailure } from '../db/errors';
import { contactAttribute, recordItem, recordOf } from './record-item';

/**
 * The new record, once: a retry with the same id (or an id collision) cannot overwrite evidence.
 * `sealedContact` (consent/contact.ts) rides on the same item, so keeping it costs no write.
 */
export const recordPut = (record: ConsentRecord, sealedContact?: string): PutCommandInput => ({
  TableName: tableName(),
  Item: { ...recordItem(record), ...(sealedContact === undefined ? {} : { [contactAttribute]: sealedContact }) },
  ConditionExpression: 'attribute_not_exists(PK)',
});

export const putRecord = async (record: ConsentRecord, sealedContact?: string): Promise<void> => {
  try {
    await db().send(new PutCommand(recordPut(record, sealedContact)));
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(`Consent record ${record.recordId} already exists`);
    throw error;
  }
};

/** The same put as an item of a transaction (a child's record, written with its guardian request). */
export const recordNamedPut = (record: ConsentRecord, sealedContact?: string): NamedItem => ({
  name: 'consent record',
  item: { Put: recordPut(record, sealedContact) },
  onConditionFailure: () => new ConflictError(`Consent record ${record.recordId} already exists`),
});

/**
 * A child's record leaves AWAITING_GUARDIAN, once: to ACTIVE with the guardian's decision (the
 * record's `cs` removed: absent is ACTIVE), or to GUARDIAN_REFUSED or GUARDIAN_EXPIRED. The
 * evidence is untouched; the decision's own evidence is its logged document.
 */
export const guardianOutcomeUpdate = (
  record: Pick<ConsentRecord, 'tenantId' | 'recordId'>,
  outcome: { state: 'ACTIVE'; decision: GuardianDecision } | { state: 'GUARDIAN_REFUSED' | 'GUARDIAN_EXPIRED' },
  onConditionFailure: OnConditionFailure,
): NamedItem => ({
  name: 'consent record',
  item: {
    Update: {
      TableName: tableName(),
      Key: consentKeys.record(record.tenantId, record.recordId),
      UpdateExpression: outcome.state === 'ACTIVE' ? 'SET gdc = :decision REMOVE cs' : 'SET cs = :state',
      ConditionExpression: 'cs = :awaiting',
      ExpressionAttributeValues: { ':awaiting': 'AWAITING_GUARDIAN', ...(outcome.state === 'ACTIVE' ? { ':decision': outcome.decision } : { ':state': outcome.state }) },
    },
  },
  onConditionFailure,
});

/** A child's record leaves the majority index once consent.majority_reached is sent (in the same transaction). */
export const majorityDoneUpdate = (record: Pick<ConsentRecord, 'tenantId' | 'recordId'>): NamedItem => ({
  name: 'consent record',
  item: {
    Update: {
      TableName: tableName(),
      Key: consentKeys.record(record.tenantId, record.recordId),
      UpdateExpression: 'REMOVE GSI5PK, GSI5SK',
      ConditionExpression: 'attribute_exists(GSI5PK)',
    },
  },
});

/**
 * Retention's expiry of a record (retention/sweeper.ts): the purposes whose period ended are
 * added to `xp`, with when and why; once every purpose the record decided is in it, the record is
 * EXPIRED. Only a record in force (no `cs`) expires; the evidence is untouched.
 */
export const expiryUpdate = (record: Pick<ConsentRecord, 'tenantId' | 'recordId' | 'legacyKey' | 'consentGiven' | 'expiredPurposes'>, purposeIds: readonly string[], at: string, reason: string): NamedItem => {
  const expired = [...new Set([...(record.expiredPurposes ?? []), ...purposeIds])].sort();
  const all = Object.keys(record.consentGiven).every((purposeId) => expired.includes(purposeId));
  return {
    name: 'consent record',
    item: {
      Update: {
        TableName: tableName(),
        Key: recordKeyOf(record),
        UpdateExpression: `SET xp = :expired, xat = :at, xrs = :reason${all ? ', cs = :state' : ''}`,
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(cs)',
        ExpressionAttributeValues: { ':expired': expired, ':at': at, ':reason': reason, ...(all ? { ':state': 'EXPIRED' } : {}) },
      },
    },
  };
};

/** A record's key as it is stored: in its shard, or (a record from before the shards) under the tenant. */
export const recordKeyOf = (record: Pick<ConsentRecord, 'tenantId' | 'recordId' | 'legacyKey'>) =>
  record.legacyKey ? consentKeys.legacyRecord(record.tenantId, record.recordId) : consentKeys.record(record.tenantId, record.recordId);

/** A record by id: in its shard, else where records were before the shards (a second read, only for those). */
export const getRecord = async (tenantId: string, recordId: string, consistent = false): Promise<ConsentRecord | undefined> => {
  for (const key of [consentKeys.record(tenantId, recordId), consentKeys.legacyRecord(tenantId, recordId)]) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
    if (Item) return recordOf(Item);
  }
  return undefined;
};

export interface Page {
  records: ConsentRecord[];
  lastKey: Record<string, unknown> | undefined;
}

/**
 * A key range of records in one index partition: the sparse status and withdrawal indexes and the
 * hash-chain index. (The creation-order ranges span the record shards: record-ranges.ts.)
 */
export type RecordRange = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

/** The index ranges the records listing reads. */
export const recordRanges = {
  /**
   * Withdrawn and partially withdrawn records are in the sparse status index; active ones are the
   * creation-order records without a withdrawal (activeRecords below): a new record carries no
   * status key, so that recording a consent writes one index entry fewer.
   */
  byStatus: (tenantId: string, status: Exclude<DerivedStatus, 'active'>, ascending: boolean): RecordRange => ({
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': consentKeys.statusPartition(tenantId, status) },
    ScanIndexForward: ascending,
  }),
  /** Fully withdrawn records by withdrawal time. */
  byWithdrawal: (tenantId: string, ascending: boolean): RecordRange => ({
    IndexName: 'GSI4',
    KeyConditionExpression: 'GSI4PK = :pk',
    ExpressionAttributeValues: { ':pk': consentKeys.withdrawnPartition(tenantId) },
    ScanIndexForward: ascending,
  }),
  /** Hash-chain era records at chain positions [from, to]. */
  byChainPosition: (tenantId: string, from: number, to: number): RecordRange => ({
    IndexName: 'GSI5',
    KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': consentKeys.chainPartition(tenantId), ':from': consentKeys.chainPosition(from), ':to': consentKeys.chainPosition(to) },
  }),
};

/**
 * Records the counters count, as a filter on the creation-order records: a child's or guarded
 * person's decision not in force (`cs`: waiting for, refused by or expired before the guardian) is
 * counted only once approved (shared/evidence/entries.ts), so a listing that showed it would not
 * match its total and would skip pages by the wrong counts. Those decisions are listed by the
 * guardian requests (GET /children/guardian-requests) and found by the principal's email.
 */
export const countedRecords = () => ({ expression: '(attribute_not_exists(cs) OR cs = :expired)', values: { ':expired': 'EXPIRED' } });

/**
 * Counted records without a withdrawal (hash-chain era records carry an explicit active status key; they are active too).
 * A record whose purposes all lapsed under retention (`cs` EXPIRED, shared/retention) was counted and
 * never withdrawn: it stays listed, under its state, as the counters still count it.
 */
export const activeRecords = (tenantId: string) => ({
  expression: `${countedRecords().expression} AND (attribute_not_exists(GSI2PK) OR GSI2PK = :active)`,
  values: { ...countedRecords().values, ':active': consentKeys.statusPartition(tenantId, 'active') },
});

/** One page of a range of records: at most `limit`, from where the previous page stopped. */
export const queryRecords = async (range: RecordRange, limit?: number, startKey?: Record<string, unknown>): Promise<Page> => {
  const { Items = [], LastEvaluatedKey } = await db().send(
    new QueryCommand({ ...range, TableName: tableName(), ...(limit ? { Limit: limit } : {}), ExclusiveStartKey: startKey }),
  );
  return { records: Items.map(recordOf), lastKey: LastEvaluatedKey };
};

/** Length of the tenant's hash chain (0 for a tenant that never had one). */
export const chainLength = async (tenantId: string): Promise<number> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.chainHead(tenantId), ConsistentRead: true }));
  return Number(Item?.seq ?? 0);
};

const principalItems = (tenantId: string, principalHash: string, limit?: number) =>
  queryAll(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': consentKeys.principalPartition(tenantId, principalHash) },
      ScanIndexForward: false,
    },
    { limit },
  );

/** Every record of one principal (a small set: one per notice they were shown), newest first. */
export const principalRecords = async (tenantId: string, principalHash: string, limit?: number): Promise<ConsentRecord[]> =>
  (await principalItems(tenantId, principalHash, limit)).map(recordOf);

/** The same records, each with the sealed email it carries, if any (consent/contact.ts reads it; no API returns it). */
export const principalRecordsWithContact = async (tenantId: string, principalHash: string) =>
  (await principalItems(tenantId, principalHash)).map((item) => ({
    record: recordOf(item),
    sealedContact: typeof item[contactAttribute] === 'string' ? (item[contactAttribute] as string) : undefined,
  }));

/** Removes a record's sealed contact (never part of its evidence); nothing when the record has none. */
export const removeSealedContact = async (tenantId: string, recordId: string): Promise<void> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: consentKeys.record(tenantId, recordId),
        UpdateExpression: 'REMOVE #contact',
        ConditionExpression: 'attribute_exists(#contact)',
        ExpressionAttributeNames: { '#contact': contactAttribute },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/** Every record the tenant's system filed under one external id, newest first. */
export const externalIdRecords = async (tenantId: string, externalId: string): Promise<ConsentRecord[]> =>
  (
    await queryAll({
      IndexName: 'GSI3',
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': consentKeys.externalPartition(tenantId, externalId) },
      ScanIndexForward: false,
    })
  ).map(recordOf);

export interface ConsentStats {
  total: number;
  active: number;
  partial: number;
  withdrawn: number;
  counters: Record<string, number>;
  /**
   * New records are counted when the log sequences them (shared/evidence/sequencer.ts), seconds
   * after they were written: the time of the last count, so a reader knows how current they are.
   */
  asOf: string | null;
}

export const readStats = async (tenantId: string): Promise<ConsentStats> => {
  const { Item = {} } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId) }));
  const counters = Object.fromEntries(Object.entries(Item).filter(([, value]) => typeof value === 'number')) as Record<string, number>;
  return { total: counters.total ?? 0, active: counters.active ?? 0, partial: counters.partial ?? 0, withdrawn: counters.withdrawn ?? 0, counters, asOf: typeof Item.asOf === 'string' ? Item.asOf : null };
};

/** Counter attribute names on the stats item. */
export const counterNames = {
  noticeConsents: (noticeId: string) => `nc_${noticeId}`,
  purposeGiven: (purposeId: string) => `pg_${purposeId}`,
  purposeWithdrawn: (purposeId: string) => `pw_${purposeId}`,
};

/**
 * The day buckets (`given`, `withdrawn` counts) of days [from, to], as YYYY-MM-DD. The log counts
 * the current day's new records on the counters item (`day`, `dayGiven`: shared/evidence/log-counts.ts)
 * and moves them into the day's item when the next day begins: both are read, and added up.
 */
export const dailyBuckets = async (tenantId: string, from: string, to: string): Promise<Record<string, unknown>[]> => {
  const [buckets, { Item: counters }] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': tenantPartition(tenantId), ':from': consentKeys.daily(tenantId, from).SK, ':to': consentKeys.daily(tenantId, to).SK },
    }),
    db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.stats(tenantId) })),
  ]);
  const day = typeof counters?.day === 'string' ? counters.day : undefined;
  if (day === undefined || day < from || day > to || !counters?.dayGiven) return buckets;
  const key = consentKeys.daily(tenantId, day);
  const stored = buckets.find((bucket) => bucket.SK === key.SK);
  const current = { ...key, ...stored, given: Number(stored?.given ?? 0) + Number(counters.dayGiven) };
  return [...buckets.filter((bucket) => bucket !== stored), current].sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
};

export const consentCountOf = (stats: ConsentStats, noticeId: string): number => stats.counters[counterNames.noticeConsents(noticeId)] ?? 0;

/** Reserves `tokens` more of the month's consent volume, only while the reserved total stays within `limit`. */
export const reservationUpdate = (tenantId: string, month: string, tokens: number, limit: number): UpdateCommandInput => ({
  TableName: tableName(),
  Key: consentKeys.monthlyVolume(tenantId, month),
  UpdateExpression: 'ADD reserved :tokens',
  ConditionExpression: 'attribute_not_exists(reserved) OR reserved <= :most',
  ExpressionAttributeValues: { ':tokens': tokens, ':most': limit - tokens },
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
});

/** The reserved total the failed condition saw (the SDK hands it back unmarshalled or not, by version). */
const reservedOf = (item: Record<string, unknown> | undefined): number => {
  const value = item?.reserved;
  if (value && typeof value === 'object' && 'N' in value) return Number((value as { N: string }).N);
  return value === undefined ? Number.POSITIVE_INFINITY : Number(value);
};

/** 'reserved', or the total already reserved when `tokens` more would pass the limit. */
export const reserveVolume = async (tenantId: string, month: string, tokens: number, limit: number): Promise<'reserved' | { reservedBefore: number }> => {
  try {
    await db().send(new UpdateCommand(reservationUpdate(tenantId, month, tokens, limit)));
    return 'reserved';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { reservedBefore: reservedOf((error as { Item?: Record<string, unknown> }).Item) };
  }
};

/** Children's records whose majority date has come (every tenant's), up to `limit` per shard: the sweep runs again for more. */
export const recordsComingOfAge = async (today: string, limit = 100): Promise<ConsentRecord[]> =>
  (
    await Promise.all(
      Array.from({ length: majorityShards }, async (_, shard) => {
        const { Items = [] } = await db().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: 'GSI5',
            KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK <= :today',
            ExpressionAttributeValues: { ':pk': consentKeys.majorityPartition(shard), ':today': `${today}~` },
            Limit: limit,
          }),
        );
        return Items.map(recordOf);
      }),
    )
  ).flat();
