import { GetCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { conflict, writtenUnlessRaced } from '../db/errors';
import { checkedEntityOf, soundEntitiesOf, type RequiredShape } from '../db/item';
import { queryAll, queryPrefix } from '../db/query';
import type { NamedItem } from '../db/transact';
import { NotFoundError } from '../errors';
import { tenantPartition } from '../tenants/keys';
import type { Breach, Progress } from './breach';
import { breachKeys } from './keys';

/** The breach register's data layer: items, conditional changes, and the intimation's pages and markers. */

const breachType = 'Breach';
const shape: RequiredShape = { breachId: 'string', title: 'string', status: 'string', awareAt: 'string', version: 'number', dataCategories: 'array' };

export const breachOf = (item: Record<string, unknown>): Breach => checkedEntityOf<Breach>(item, shape, 'Breach', 'breachId');

/** A new breach, once. */
export const breachPut = (breach: Breach): NamedItem => ({
  name: 'breach',
  item: { Put: { TableName: tableName(), Item: { ...breachKeys.breach(breach.tenantId, breach.breachId), type: breachType, ...breach }, ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailure: conflict('The breach already exists'),
});

export const getBreach = async (tenantId: string, breachId: string, consistent = false): Promise<Breach | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: breachKeys.breach(tenantId, breachId), ConsistentRead: consistent }));
  return Item ? breachOf(Item) : undefined;
};

/** The breach, or 404 (another tenant's breach is simply not in this tenant's partition). */
export const requireBreach = async (tenantId: string, breachId: string, consistent = false): Promise<Breach> => {
  const breach = await getBreach(tenantId, breachId, consistent);
  if (!breach) throw new NotFoundError('Breach');
  return breach;
};

/** A tenant's breaches, newest first: a handful a year, so one range read; a corrupt one is logged and left out. */
export const listBreaches = async (tenantId: string): Promise<Breach[]> =>
  soundEntitiesOf<Breach>(await queryPrefix(tenantPartition(tenantId), breachKeys.breachPrefix, { newestFirst: true }), shape, 'Breach');

export interface Change {
  /** Attribute paths (`title`, `intimation.status`) to values. */
  set?: Record<string, unknown>;
  /** Attribute paths to numbers added to them (a path a breach of an older layout lacks counts from 0). */
  add?: Record<string, number>;
  /** A further condition, its `:values` in `values`; path names as `#a_b` for `a.b`. */
  condition?: string;
  values?: Record<string, unknown>;
}

const nameOf = (path: string) => path.split('.').map((part) => `#${part}`).join('.');

/** The UpdateItem parts of a change; every `#name` its expressions use is declared (and none that they do not: DynamoDB refuses those). */
export const updateParts = (change: Change): Required<Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>> & Pick<UpdateCommandInput, 'ConditionExpression'> => {
  const set = Object.entries(change.set ?? {});
  const add = Object.entries(change.add ?? {});
  const clauses = [
    ...set.map(([path], index) => `${nameOf(path)} = :s${index}`),
    ...add.map(([path], index) => `${nameOf(path)} = if_not_exists(${nameOf(path)}, :zero) + :a${index}`),
  ];
  const UpdateExpression = `SET ${clauses.join(', ')}`;
  const names = new Set([...`${UpdateExpression} ${change.condition ?? ''}`.matchAll(/#(\w+)/g)].map((match) => match[1]!));
  return {
    UpdateExpression,
    ExpressionAttributeNames: Object.fromEntries([...names].map((name) => [`#${name}`, name])),
    ExpressionAttributeValues: {
      ...Object.fromEntries(set.map(([, value], index) => [`:s${index}`, value])),
      ...Object.fromEntries(add.map(([, value], index) => [`:a${index}`, value])),
      ...(add.length > 0 ? { ':zero': 0 } : {}),
      ...change.values,
    },
    ...(change.condition ? { ConditionExpression: change.condition } : {}),
  };
};

const breachUpdate = (breach: Pick<Breach, 'tenantId' | 'breachId'>, name: string, change: Change, onConditionFailure: NamedItem['onConditionFailure']): NamedItem => ({
  name,
  item: { Update: { TableName: tableName(), Key: breachKeys.breach(breach.tenantId, breach.breachId), ...updateParts(change) } },
  ...(onConditionFailure ? { onConditionFailure } : {}),
});

/** Runs one change on its own (not in a transaction); false when its condition failed. */
export const applyChange = (change: NamedItem): Promise<boolean> => writtenUnlessRaced(() => db().send(new UpdateCommand(change.item.Update!)));

/**
 * A change made from what was read: conditional on the breach still being at that version (a
 * concurrent change makes one of them 409, never a silent overwrite), bumping it.
 */
export const versionedChange = (breach: Breach, set: Record<string, unknown>, at: string): NamedItem =>
  breachUpdate(
    breach,
    'breach',
    { set: { ...set, version: breach.version + 1, updatedAt: at }, condition: '#version = :read', values: { ':read': breach.version } },
    conflict('The breach was changed at the same time; reload it and try again'),
  );

/** The intimation's own bookkeeping, by the workers: conditional only on the run still being the current one. */
export const runChange = (breach: Pick<Breach, 'tenantId' | 'breachId'>, runId: string, change: Change): NamedItem =>
  breachUpdate(breach, 'intimation run', { ...change, condition: `#intimation.#runId = :run${change.condition ? ` AND ${change.condition}` : ''}`, values: { ':run': runId, ...change.values } }, undefined);

/** The counters a completed batch adds, and the run's progress time. */
export const batchProgress = (breach: Pick<Breach, 'tenantId' | 'breachId'>, runId: string, counts: Progress, at: string): NamedItem =>
  runChange(breach, runId, {
    set: { 'intimation.lastProgressAt': at },
    add: { 'progress.total': counts.total, 'progress.mailed': counts.mailed, 'progress.viaTenant': counts.viaTenant, 'progress.awaitingTenant': counts.awaitingTenant, 'progress.failed': counts.failed, 'intimation.batchesDone': 1 },
  });

// Listed hashes (scope PRINCIPALS), one chunk per batch.

export const chunkPut = (tenantId: string, breachId: string, chunk: number, hashes: string[]): NamedItem => ({
  name: `listed principals ${chunk}`,
  item: { Put: { TableName: tableName(), Item: { ...breachKeys.listedChunk(tenantId, breachId, chunk), type: 'BreachListedPrincipals', tenantId, breachId, hashes }, ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailure: conflict('Principals were listed for this breach at the same time; try again'),
});

export const getChunk = async (tenantId: string, breachId: string, chunk: number): Promise<string[] | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: breachKeys.listedChunk(tenantId, breachId, chunk), ConsistentRead: true }));
  return Item ? (Item.hashes as string[]) : undefined;
};

// An intimation run's pages: what each resolution step found, and whether its batch completed.

/** Where the next page starts: the records' last key, or the next listed chunk. */
export type PageCursor = Record<string, unknown> | number | null;

export interface Page {
  tenantId: string;
  breachId: string;
  runId: string;
  page: number;
  /** Where this page started (a stalled resolution is resumed from its last page). */
  cursor: PageCursor;
  /** The candidate principals of the page; a batch claims those no other batch has. */
  hashes: string[];
  next: PageCursor;
  /** Non-empty pages up to and including this one: the run's planned batches once it is the last. */
  batchesSoFar: number;
  state: 'PLANNED' | 'COMPLETE';
  createdAt: string;
}

/** Writes a page once; false when it was already written (a resolution message seen again). */
export const putPage = (page: Page): Promise<boolean> =>
  writtenUnlessRaced(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: { ...breachKeys.page(page.tenantId, page.breachId, page.runId, page.page), type: 'BreachIntimationPage', ...page }, ConditionExpression: 'attribute_not_exists(PK)' })),
  );

export const getPage = async (tenantId: string, breachId: string, runId: string, page: number): Promise<Page | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: breachKeys.page(tenantId, breachId, runId, page), ConsistentRead: true }));
  return Item as Page | undefined;
};

/** The page's batch is done: once (the completion's transaction fails on a second). */
export const pageCompletion = (page: Pick<Page, 'tenantId' | 'breachId' | 'runId' | 'page'>, counts: Progress, at: string): NamedItem => ({
  name: 'intimation page',
  item: {
    Update: {
      TableName: tableName(),
      Key: breachKeys.page(page.tenantId, page.breachId, page.runId, page.page),
      UpdateExpression: 'SET #state = :complete, #counts = :counts, completedAt = :at',
      ConditionExpression: '#state = :planned',
      ExpressionAttributeNames: { '#state': 'state', '#counts': 'counts' },
      ExpressionAttributeValues: { ':complete': 'COMPLETE', ':planned': 'PLANNED', ':counts': counts, ':at': at },
    },
  },
});

/** A run's pages in order (only to resume a stalled run: a page holds up to 500 hashes, ~34 KB). */
export const runPages = async (tenantId: string, breachId: string, runId: string): Promise<Page[]> =>
  (await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :run)',
    ExpressionAttributeValues: { ':pk': breachKeys.runPartition(tenantId, breachId), ':run': `${runId}#` },
    ConsistentRead: true,
  })) as unknown as Page[];

/**
 * Claims a principal for one batch: true when the marker is new, or already this batch's own (a
 * retried batch); false when another batch, of this run or an earlier one, has her. So no retry,
 * second page or second call ever intimates a principal twice.
 */
export const claimPrincipal = (tenantId: string, breachId: string, principalHash: string, claim: { runId: string; page: number; at: string }): Promise<boolean> =>
  writtenUnlessRaced(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...breachKeys.marker(tenantId, breachId, principalHash), type: 'BreachIntimationMarker', tenantId, runId: claim.runId, page: claim.page, claimedAt: claim.at },
        ConditionExpression: 'attribute_not_exists(PK) OR (#run = :run AND #page = :page)',
        ExpressionAttributeNames: { '#run': 'runId', '#page': 'page' },
        ExpressionAttributeValues: { ':run': claim.runId, ':page': claim.page },
      }),
    ),
  );
