import { GetCommand, PutCommand, UpdateCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { conditional } from '../db/errors';
import { entityOf } from '../db/item';
import { addCounters, writeTransaction, type TransactItem } from '../db/transact';
import { ConflictError } from '../errors';
import { cmpKeys } from './keys';
import type { ServerEventEntry, VisitorState, WebEventEntry } from './visitor';

/*
 * What the visitor-facing calls read and write (the cmp-public function): the stored public body,
 * the small settings item, a visitor's state and audit log, the day's counters. The document's
 * own reads and writes, for the dashboard, are in store.ts.
 */

/** What the per-visitor endpoints need, kept small so they never read the full document. */
export interface CmpSettings {
  tenantId: string;
  revision: number;
  reconsentDays: number;
}

/** The public GET: the stored body as served, one eventually consistent read. */
export const readPublicBody = async (tenantId: string, consistent = false): Promise<{ body: string; etag: string; configured: boolean } | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: cmpKeys.publicDocument(tenantId), ConsistentRead: consistent }));
  return Item ? { body: String(Item.body), etag: String(Item.etag), configured: Item.configured === true } : undefined;
};

export const readSettings = async (tenantId: string): Promise<CmpSettings | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: cmpKeys.settings(tenantId) }));
  return Item ? entityOf<CmpSettings>(Item) : undefined;
};

/**
 * The settings and a visitor's latest state in one BatchGet (one request, one small read of each):
 * consent-status needs both, and reads reconsentDays fresh on every call so a tenant's change
 * applies at once.
 */
export const readSettingsAndVisitorState = async (
  tenantId: string,
  visitorId: string,
): Promise<{ settings: CmpSettings | undefined; state: VisitorState | undefined }> => {
  const settingsKey = cmpKeys.settings(tenantId);
  const items = await batchGetAll([settingsKey, cmpKeys.visitorState(tenantId, visitorId)]);
  const settings = items.find((item) => item.PK === settingsKey.PK && item.SK === settingsKey.SK);
  const state = items.find((item) => item !== settings);
  return { settings: settings && entityOf<CmpSettings>(settings), state: state && entityOf<VisitorState>(state) };
};

const logPut = (entry: WebEventEntry | ServerEventEntry) => ({
  TableName: tableName(),
  Item: { ...cmpKeys.logEntry(entry.tenantId, entry.visitorId, entry.createdAt, entry.entryId), type: 'CmpLogEntry', ...entry },
  // Append-only: an entry is written once and never replaced.
  ConditionExpression: 'attribute_not_exists(PK)',
});

const entryIdCollision = () => new ConflictError('Audit entry id collision; retry');

/** The visitor's stored state is newer than this event: log the event, keep the state. */
class NewerStateStored extends ConflictError {
  constructor() {
    super("A newer state is stored for this visitor");
  }
}

/**
 * The audit entry and the visitor's latest state, together. A late event older than the stored
 * state is still logged but leaves the state alone.
 */
export const appendWebEvent = async (entry: WebEventEntry, state: VisitorState): Promise<void> => {
  const statePut: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: { ...cmpKeys.visitorState(state.tenantId, state.visitorId), type: 'CmpVisitorState', ...state },
      ConditionExpression: 'attribute_not_exists(PK) OR lastUpdated <= :at',
      ExpressionAttributeValues: { ':at': state.lastUpdated },
    },
  };
  try {
    await writeTransaction(
      [
        { name: 'audit entry', item: { Put: logPut(entry) }, onConditionFailure: entryIdCollision },
        { name: 'visitor state', item: statePut, onConditionFailure: () => new NewerStateStored() },
      ],
    );
  } catch (error) {
    if (!(error instanceof NewerStateStored)) throw error;
    await conditional(() => db().send(new PutCommand(logPut(entry))), entryIdCollision);
  }
};

export const appendServerEvent = async (entry: ServerEventEntry): Promise<void> => {
  await conditional(() => db().send(new PutCommand(logPut(entry))), entryIdCollision);
};

/**
 * Adds to the day's counters, after the evidence is stored and outside its transaction: every
 * event of a tenant updates this one item, and transactions touching a shared item cancel each
 * other under load, while plain ADDs queue. A crash between the two writes leaves the counters
 * one event short; the audit log stays complete.
 */
export const countDailyEvents = async (tenantId: string, day: string, counters: Record<string, number>): Promise<void> => {
  const { Update } = addCounters(cmpKeys.daily(tenantId, day), counters);
  await db().send(new UpdateCommand(Update!));
};
