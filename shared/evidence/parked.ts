import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '../db/commands';
import { nowIso } from '../clock';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import { named, tryTransaction, writeTransaction } from '../db/transact';
import { describeError, log } from '../log';
import { emitMetrics, metricNames } from '../metrics';
import type { LogEntry } from './entries';
import { logKeys } from './log-keys';
import { sequenceEntries } from './sequencer';

/**
 * Log entries the stream could not append to their tenant's log (its head will not move, an item
 * of its log is corrupt, …), kept in stream order until a retry appends them: the tenant is parked.
 * While it is parked its new entries queue behind the earlier ones (the stream's consumer checks the
 * marker first), so its log still takes every entry, in order, and none is skipped; other tenants'
 * entries go on as usual. The retry (retryParkedLogs: the checkpointer's schedule in AWS, the local
 * workers' checkpoint loop) appends them and unparks the tenant once none is left.
 *
 * The marker item carries a version that every park moves on, and is removed only at the version
 * whose entries the retry appended, so entries parked during a retry are never left behind.
 */
interface ParkedMarker {
  version: number;
  parkedAt: string;
  reason: string;
}

/** Entries per parked item: about 300 bytes each as JSON, far below DynamoDB's 400 KB. */
const entriesPerItem = 200;
let parkedSequence = 0;

/** A sort key suffix that keeps one process's parks in order even within a millisecond. */
const orderKey = () => `${nowIso()}#${String((parkedSequence = (parkedSequence + 1) % 1e6)).padStart(6, '0')}#${randomBytes(3).toString('hex')}`;

const readMarker = async (tenantId: string): Promise<ParkedMarker | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: logKeys.parked(tenantId), ConsistentRead: true }));
  return Item ? { version: Number(Item.version), parkedAt: String(Item.parkedAt), reason: String(Item.reason) } : undefined;
};

/**
 * Parks entries behind any parked before, each chunk with its marker update in one transaction,
 * which also flags the head (`parked`): the stream's consumer reads the head for every batch, so
 * it learns a tenant is parked without reading the marker.
 */
export const parkEntries = async (tenantId: string, entries: readonly LogEntry[], reason: string): Promise<void> => {
  for (let at = 0; at < entries.length; at += entriesPerItem) {
    const now = nowIso();
    await writeTransaction([
      named('parked marker', {
        Update: {
          TableName: tableName(),
          Key: logKeys.parked(tenantId),
          UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, #type = :type, parkedAt = if_not_exists(parkedAt, :now), reason = :reason, lastParkedAt = :now ADD version :one',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':pk': logKeys.parkedIndex(tenantId).GSI1PK, ':sk': logKeys.parkedIndex(tenantId).GSI1SK, ':type': 'LogParked', ':now': now, ':reason': reason.slice(0, 1000), ':one': 1 },
        },
      }),
      named('log head', { Update: { TableName: tableName(), Key: logKeys.head(tenantId), UpdateExpression: 'SET parked = :now', ExpressionAttributeValues: { ':now': now } } }),
      named('parked entries', {
        Put: {
          TableName: tableName(),
          Item: { ...logKeys.parkedEntries(tenantId, orderKey()), type: 'LogParkedEntries', entries: JSON.stringify(entries.slice(at, at + entriesPerItem)) },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
    ]);
  }
};

const parkedItems = (tenantId: string) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':prefix': logKeys.parkedEntriesPrefix },
    ConsistentRead: true,
  });

/**
 * Appends a parked tenant's entries to its log, oldest first, and unparks it once none is left.
 * Idempotent: an entry already in the log is found by its id and not appended again, so a retry
 * that died halfway is finished by the next.
 */
export const drainParked = async (tenantId: string): Promise<void> => {
  for (let marker = await readMarker(tenantId); marker; marker = await readMarker(tenantId)) {
    for (const item of await parkedItems(tenantId)) {
      await sequenceEntries(tenantId, JSON.parse(String(item.entries)) as LogEntry[]);
      await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
    }
    // The marker goes only at the version whose entries were appended, and the head's flag with it.
    const unparked = await tryTransaction([
      named('parked marker', { Delete: { TableName: tableName(), Key: logKeys.parked(tenantId), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': marker.version } } }),
      named('log head', { Update: { TableName: tableName(), Key: logKeys.head(tenantId), UpdateExpression: 'REMOVE parked' } }),
    ]);
    if (unparked === 'ok') return;
  }
};

export interface ParkedTenant {
  tenantId: string;
  parkedAt: string;
  reason: string;
}

/** Every parked tenant (the sparse GSI1 partition LOG#PARKED). */
export const parkedTenants = async (): Promise<ParkedTenant[]> =>
  (await queryAll({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': logKeys.parkedPartition } })).map((item) => ({
    tenantId: String(item.GSI1SK),
    parkedAt: String(item.parkedAt),
    reason: String(item.reason),
  }));

/** How many entries a parked tenant has waiting (a test's and an operator's look). */
export const parkedEntryCount = async (tenantId: string): Promise<number> =>
  (await parkedItems(tenantId)).reduce((count, item) => count + (JSON.parse(String(item.entries)) as unknown[]).length, 0);

/** Retries every parked tenant (that `accept` takes: a test file's workers, their own) apart from the others; returns how many were unparked. */
export const retryParkedLogs = async (accept: (tenantId: string) => boolean = () => true): Promise<number> => {
  let unparked = 0;
  for (const { tenantId } of await parkedTenants()) {
    if (!accept(tenantId)) continue;
    try {
      await drainParked(tenantId);
      unparked += 1;
    } catch (error) {
      log.error('parked log entries not appended; the tenant stays parked', { tenantId, ...describeError(error) });
      emitMetrics({ [metricNames.streamTenantFailures]: 1 }, { consumer: 'parked log retry', tenantId });
      // Kept on the marker for whoever looks into it; gone already if a concurrent retry unparked it.
      await writtenUnlessRaced(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: logKeys.parked(tenantId),
            UpdateExpression: 'SET lastError = :error, lastRetryAt = :now ADD retries :one',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':error': String(error instanceof Error ? error.message : error).slice(0, 1000), ':now': nowIso(), ':one': 1 },
          }),
        ),
      );
    }
  }
  return unparked;
};
