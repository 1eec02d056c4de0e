import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { isConditionFailure, writtenUnlessRaced } from '../db/errors';
import { entityOf } from '../db/item';
import { named, writeTransaction, type NamedItem } from '../db/transact';
import { scanKeys } from './keys';
import { ScanAlreadyRunningError, ScanRateLimitError, type Finding, type ScanRun } from './run';

export interface ScanLock {
  scanRunId: string;
  active: boolean;
  /** When the lock's run was created: the next run may start 10 minutes (minGapSeconds) later. */
  lastCreatedAt: string;
  /** An active lock older than this is stale (its run's worker died): a new run may take it. */
  activeUntil: string;
}

export const readLock = async (tenantId: string): Promise<ScanLock | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: scanKeys.lock(tenantId), ConsistentRead: true }));
  return Item ? entityOf<ScanLock>(Item) : undefined;
};

/**
 * Writes a QUEUED run and takes the tenant's scan lock in one transaction, conditional on the lock
 * being free and its last run older than `minGapSeconds`: of two simultaneous calls exactly one
 * run is created. The loser learns why from the lock it lost to.
 */
export const createRun = async (run: ScanRun, options: { minGapSeconds: number; activeForSeconds: number }): Promise<void> => {
  const now = Date.parse(run.createdAt);
  const lock: ScanLock = {
    scanRunId: run.scanRunId,
    active: true,
    lastCreatedAt: run.createdAt,
    activeUntil: new Date(now + options.activeForSeconds * 1000).toISOString(),
  };
  const lockLost = () => new ScanAlreadyRunningError('(unknown)');
  const items: NamedItem[] = [
    {
      name: 'scan lock',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...scanKeys.lock(run.tenantId), type: 'ScanLock', ...lock },
          ConditionExpression: 'attribute_not_exists(PK) OR ((active = :false OR activeUntil < :now) AND lastCreatedAt <= :cutoff)',
          ExpressionAttributeValues: { ':false': false, ':now': run.createdAt, ':cutoff': new Date(now - options.minGapSeconds * 1000).toISOString() },
        },
      },
      onConditionFailure: lockLost,
    },
    {
      name: 'run',
      item: { Put: { TableName: tableName(), Item: { ...scanKeys.run(run.tenantId, run.scanRunId), type: 'ScanRun', ...run }, ConditionExpression: 'attribute_not_exists(PK)' } },
      // Run ids are fresh UUIDv7s: a collision means the same request twice, which the lock answers.
      onConditionFailure: lockLost,
    },
  ];
  try {
    await writeTransaction(items);
  } catch (error) {
    if (!(error instanceof ScanAlreadyRunningError)) throw error;
    const held = await readLock(run.tenantId);
    if (held && held.active && held.activeUntil >= run.createdAt) throw new ScanAlreadyRunningError(held.scanRunId);
    const retryAfter = held ? (Date.parse(held.lastCreatedAt) + options.minGapSeconds * 1000 - now) / 1000 : 1;
    throw new ScanRateLimitError(retryAfter);
  }
};

/** Releases the lock if it is still this run's (a stale lock may have been taken over since). */
export const releaseLock = async (tenantId: string, scanRunId: string): Promise<void> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: scanKeys.lock(tenantId),
        UpdateExpression: 'SET active = :false',
        ConditionExpression: 'scanRunId = :run',
        ExpressionAttributeValues: { ':false': false, ':run': scanRunId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

export const readRun = async (tenantId: string, scanRunId: string): Promise<ScanRun | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: scanKeys.run(tenantId, scanRunId), ConsistentRead: true }));
  return Item ? entityOf<ScanRun>(Item) : undefined;
};

export const readReport = async (tenantId: string, scanRunId: string): Promise<Finding[]> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: scanKeys.report(tenantId, scanRunId) }));
  return Item ? (JSON.parse(String(Item.findings)) as Finding[]) : [];
};

export const listRuns = async (tenantId: string, limit: number): Promise<ScanRun[]> => {
  const { PK } = scanKeys.run(tenantId, '');
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': scanKeys.runPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map((item) => entityOf<ScanRun>(item));
};

/** QUEUED → RUNNING; false when the run is not QUEUED (a redelivered message). */
export const markRunning = (tenantId: string, scanRunId: string, startedAt: string): Promise<boolean> =>
  writtenUnlessRaced(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: scanKeys.run(tenantId, scanRunId),
        UpdateExpression: 'SET #status = :running, startedAt = :at',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'RUNNING', ':queued': 'QUEUED', ':at': startedAt },
      }),
    ),
  );

/**
 * The run's final state, its report and any mail, all or nothing and only if the run is still
 * unfinished: a redelivered message can never finish a run twice or send its alert twice.
 * Returns false when the run was already finished.
 */
export const finishRun = async (run: ScanRun, findings: Finding[], extra: NamedItem[] = []): Promise<boolean> => {
  const { tenantId, scanRunId } = run;
  const items: NamedItem[] = [
    {
      name: 'run',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...scanKeys.run(tenantId, scanRunId), type: 'ScanRun', ...run },
          ConditionExpression: '#status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':queued': 'QUEUED', ':running': 'RUNNING' },
        },
      },
      // Finished already: a redelivered message.
      onConditionFailure: () => new ScanAlreadyRunningError(scanRunId),
    },
    named('report', { Put: { TableName: tableName(), Item: { ...scanKeys.report(tenantId, scanRunId), type: 'ScanReport', findings: JSON.stringify(findings) } } }),
    ...extra,
  ];
  try {
    await writeTransaction(items);
  } catch (error) {
    if (error instanceof ScanAlreadyRunningError) return false;
    throw error;
  }
  await releaseLock(tenantId, scanRunId);
  return true;
};

/** Schedules (or, with null, unschedules) the tenant's next scheduled scan. */
export const writeSchedule = async (tenantId: string, nextScanAt: string | null): Promise<void> => {
  if (nextScanAt === null) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: scanKeys.schedule(tenantId) }));
    return;
  }
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...scanKeys.schedule(tenantId), ...scanKeys.due(tenantId, nextScanAt), type: 'ScanSchedule', tenantId, nextScanAt } }),
  );
};

export const readSchedule = async (tenantId: string): Promise<string | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: scanKeys.schedule(tenantId) }));
  return Item ? String(Item.nextScanAt) : undefined;
};

/** Tenants whose next scan is due by `now`, oldest due first, one page. */
export const dueTenants = async (now: string, limit: number): Promise<string[]> => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :due AND GSI2SK <= :now',
      ExpressionAttributeValues: { ':due': scanKeys.duePartition, ':now': `${now}#~` },
      Limit: limit,
    }),
  );
  return Items.map((item) => String(item.tenantId));
};
