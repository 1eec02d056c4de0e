import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type PutCommandInput, type UpdateCommandInput } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { isConditionFailure, writtenUnlessRaced } from '../db/errors';
import { queryAll } from '../db/query';
import { decodeEntries, encodeEntries, type EntryKind, type LogEntry } from './entries';
import { decodeFrontier, encodeFrontier } from './frontier';
import { logKeys } from './log-keys';
import type { BatchCounts } from './log-counts';

export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
  signedAt: string;
  keyId: string;
  note: string;
}

/**
 * The tenant's log as it stands. Every batch appended since batches carry the tree's state
 * (`BatchState` below) is integrated as it is appended, so then `integrated` = `sequenced` = the
 * latest batch's end and the root is the one it stored; the head item keeps what changes less
 * often: the latest checkpoint, how far the tiles reach, whether the tenant is parked or has an
 * unsigned tree. A log whose latest batch is older keeps the sizes and root its head stored then.
 */
export interface LogHead {
  sequenced: number;
  integrated: number;
  /** Root of the integrated tree, hex (the empty tree's root when nothing is integrated). */
  rootHash: string | null;
  integratedAt: string | null;
  checkpoint: StoredCheckpoint | null;
  /** Hash-chain era records have been taken in as the first leaves (migration.ts). */
  migrated: boolean;
  /** The stored tiles hold the tree of this size, right-edge tiles included (tiles.ts). */
  tiledTo: number;
  /** The tenant's new entries wait behind parked ones (parked.ts). */
  parked: boolean;
  /** When the tree first grew past its latest checkpoint; null while it has not. */
  unsignedSince: string | null;
  /**
   * What the log held before its batches carried their state, as the head stored it then and
   * still does (no later batch changes it): `sequenced` batches counted by their own transactions,
   * tiles up to `integrated` (in the tile partition's old place), map items of ids up to `mapUntil`
   * (the bucket of the last such batch's time, plus a minute for clocks that disagree).
   */
  legacy: { sequenced: number; integrated: number; mapUntil: string | null };
}

/** A batch's tree state: the log's size and root after it, and its right edge (frontier.ts). */
export interface BatchState {
  start: number;
  end: number;
  root: Uint8Array;
  frontier: Uint8Array[];
  at: string;
}

/** The latest batch, with its state if it carries one (null: a batch from before batches carried it). */
export interface LatestBatch {
  start: number;
  end: number;
  entries: { kind: EntryKind; id: string; hash: string }[];
  state: BatchState | null;
  /** The counts its records add (log-counts.ts), if it carries them. */
  counts?: BatchCounts;
}

const hex = (value: unknown) => Buffer.from(value as Uint8Array).toString('hex');
const skewMs = 60_000;

const bucketOfTime = (at: string): string => (Date.parse(at) + skewMs).toString(16).padStart(12, '0').slice(0, 10);

const latestOf = (item: Record<string, unknown> | undefined): LatestBatch | undefined => {
  if (!item) return undefined;
  const start = Number(item.start);
  const entries = decodeEntries(item.entries as Uint8Array);
  const state: BatchState | null =
    item.root === undefined
      ? null
      : { start, end: Number(item.end), root: new Uint8Array(item.root as Uint8Array), frontier: decodeFrontier(item.frontier as Uint8Array), at: String(item.at) };
  return { start, end: start + entries.length, entries, state, ...(item.counts ? { counts: item.counts as BatchCounts } : {}) };
};

const headOf = (item: Record<string, unknown> | undefined, latest: LatestBatch | undefined, lastWithState: LatestBatch | undefined): LogHead => {
  const legacy = {
    sequenced: Number(item?.sequenced ?? 0),
    integrated: Number(item?.integrated ?? 0),
    mapUntil: Number(item?.sequenced ?? 0) > 0 && typeof item?.sequencedAt === 'string' ? bucketOfTime(item.sequencedAt) : null,
  };
  // A batch without state behind one with it was not written by a sequencer: the log ends where the state says.
  const state = latest?.state ?? lastWithState?.state;
  return {
    sequenced: state ? state.end : legacy.sequenced,
    integrated: state ? state.end : legacy.integrated,
    rootHash: state ? hex(state.root) : item?.root ? hex(item.root) : null,
    integratedAt: state ? state.at : ((item?.integratedAt as string | undefined) ?? null),
    checkpoint: (item?.checkpoint as StoredCheckpoint | undefined) ?? null,
    migrated: item?.migrated === true,
    tiledTo: Number(item?.tiledTo ?? legacy.integrated),
    parked: item?.parked !== undefined,
    unsignedSince: typeof item?.unsignedSince === 'string' ? item.unsignedSince : null,
    legacy,
  };
};

/** The two latest batches of the log (the largest starts), strongly consistent. */
const latestBatchItems = async (tenantId: string) => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':first': logKeys.batchPrefix, ':last': `${logKeys.batchPrefix}~` },
      ScanIndexForward: false,
      Limit: 2,
      ConsistentRead: true,
    }),
  );
  return Items;
};

/** The head and the latest batches, read side by side (two reads): what a sequencer starts from. */
export const readLog = async (tenantId: string): Promise<{ head: LogHead; latest: LatestBatch | undefined }> => {
  const [{ Item }, [newest, before]] = await Promise.all([
    db().send(new GetCommand({ TableName: tableName(), Key: logKeys.head(tenantId), ConsistentRead: true })),
    latestBatchItems(tenantId),
  ]);
  const latest = latestOf(newest);
  return { head: headOf(Item, latest, latestOf(before)), latest };
};

export const readHead = async (tenantId: string): Promise<LogHead> => (await readLog(tenantId)).head;

/** What signing changes on the head, read alone and strongly consistent: the latest checkpoint and whether the head is in the unsigned index. */
export const readSigningState = async (tenantId: string): Promise<Pick<LogHead, 'checkpoint' | 'unsignedSince'>> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: logKeys.head(tenantId), ConsistentRead: true, ProjectionExpression: '#checkpoint, unsignedSince', ExpressionAttributeNames: { '#checkpoint': 'checkpoint' } }),
  );
  return { checkpoint: (Item?.checkpoint as StoredCheckpoint | undefined) ?? null, unsignedSince: typeof Item?.unsignedSince === 'string' ? Item.unsignedSince : null };
};

/**
 * A batch with its tree state and the counts its records add (log-counts.ts): one item, put only
 * if its position is free, which is what gives the batch its positions. Two sequencers racing for
 * one position: one put fails and that sequencer starts again from the new latest batch.
 */
export const batchPut = (tenantId: string, entries: readonly LogEntry[], state: BatchState, counts: BatchCounts | undefined): PutCommandInput => ({
  TableName: tableName(),
  Item: {
    ...logKeys.batch(tenantId, state.start),
    type: 'LogBatch',
    start: state.start,
    entries: encodeEntries(entries),
    end: state.end,
    root: state.root,
    frontier: encodeFrontier(state.frontier),
    at: state.at,
    ...(counts ? { counts } : {}),
  },
  ConditionExpression: 'attribute_not_exists(PK)',
});

/** False when the position was taken first (by another sequencer, or a batch left where the log's end was set back). */
export const putBatch = async (input: PutCommandInput): Promise<boolean> => {
  try {
    await db().send(new PutCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export interface StoredBatch {
  start: number;
  entries: { kind: EntryKind; id: string; hash: string }[];
  /** The counts a batch carrying them adds (absent: a batch whose own transaction counted it). */
  counts?: BatchCounts;
}

/** The sequenced batches holding positions [from, to), in order. */
export const readBatches = async (tenantId: string, from: number, to: number): Promise<StoredBatch[]> => {
  // A batch starting before `from` may hold it: start from the batch at or before it.
  const first = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK <= :from',
      ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':from': logKeys.batchPosition(from) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const firstStart = first.Items?.[0]?.SK?.toString().startsWith(logKeys.batchPrefix) ? Number(first.Items[0]!.start) : from;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': logKeys.partition(tenantId), ':from': logKeys.batchPosition(firstStart), ':to': logKeys.batchPosition(Math.max(firstStart, to - 1)) },
    ConsistentRead: true,
  });
  return items.map((item) => ({ start: Number(item.start), entries: decodeEntries(item.entries as Uint8Array), ...(item.counts ? { counts: item.counts as BatchCounts } : {}) }));
};

/** The batches starting at these positions (the map's fragments name them), by start. */
export const batchesAt = async (tenantId: string, starts: readonly number[]): Promise<Map<number, StoredBatch>> =>
  new Map(
    (await batchGetAll([...new Set(starts)].map((start) => logKeys.batch(tenantId, start)), { consistent: true })).map((item) => [
      Number(item.start),
      { start: Number(item.start), entries: decodeEntries(item.entries as Uint8Array) },
    ]),
  );

/** The leaf hashes' data of positions [from, to), in order (each entry's 32-byte hash). */
export const entryHashes = async (tenantId: string, from: number, to: number): Promise<Uint8Array[]> => {
  if (to <= from) return [];
  const hashes = (await readBatches(tenantId, from, to))
    .flatMap((batch) => batch.entries.map((entry, index) => ({ position: batch.start + index, entry })))
    .filter(({ position }) => position >= from && position < to)
    .map(({ entry }) => new Uint8Array(Buffer.from(entry.hash, 'hex')));
  if (hashes.length !== to - from) throw new Error(`log of tenant ${tenantId}: positions ${from}..${to} are not all sequenced`);
  return hashes;
};

/** Where a tile covers leaves from: tile (L, i) starts at leaf i · 256^(L+1). */
const tileStart = (name: string) => {
  const [level, index] = name.split('/').map(Number) as [number, number];
  return index * 256 ** (level + 1);
};

/**
 * Stored tiles by name; missing ones are absent from the map. Tiles that cover leaves below
 * `legacyTiledTo` may also have been written where tiles were before they had a partition of their
 * own: both are read, and the longer kept (tiles only grow).
 */
export const readTiles = async (tenantId: string, names: readonly string[], legacyTiledTo = 0): Promise<Map<string, Uint8Array>> => {
  const unique = [...new Set(names)];
  const keys = [...unique.map((name) => logKeys.tile(tenantId, name)), ...unique.filter((name) => tileStart(name) < legacyTiledTo).map((name) => logKeys.legacyTile(tenantId, name))];
  const tiles = new Map<string, Uint8Array>();
  for (const item of await batchGetAll(keys, { consistent: true })) {
    const name = String(item.SK).slice('TILE#'.length);
    const hashes = new Uint8Array(item.hashes as Uint8Array);
    if ((tiles.get(name)?.length ?? -1) < hashes.length) tiles.set(name, hashes);
  }
  return tiles;
};

/**
 * A tile only ever grows: two writers racing write identical bytes for a size, and one that
 * read an older size must not shrink what a faster one wrote.
 */
export const tilePut = (tenantId: string, name: string, hashes: Uint8Array): PutCommandInput => ({
  TableName: tableName(),
  Item: { ...logKeys.tile(tenantId, name), type: 'LogTile', width: hashes.length / 32, hashes },
  ConditionExpression: 'attribute_not_exists(PK) OR width < :width',
  ExpressionAttributeValues: { ':width': hashes.length / 32 },
});

export const putTile = async (tenantId: string, name: string, hashes: Uint8Array): Promise<void> => {
  await writtenUnlessRaced(() => db().send(new PutCommand(tilePut(tenantId, name, hashes))));
};

/** The tiles hold the tree of `to` now, moved on only from the size that was read (tiles.ts). */
export const tiledUpdate = (tenantId: string, from: number, to: number): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  UpdateExpression: 'SET tiledTo = :to',
  // A head from before tiledTo was kept: its tiles reach its integrated size.
  ConditionExpression: 'tiledTo = :from OR (attribute_not_exists(tiledTo) AND (attribute_not_exists(integrated) OR integrated = :from))',
  ExpressionAttributeValues: { ':from': from, ':to': to },
});

/** False when another writer moved the tiles' size first (it wrote the same tiles). */
export const commitTiled = (input: UpdateCommandInput): Promise<boolean> => writtenUnlessRaced(() => db().send(new UpdateCommand(input)));

/**
 * The head enters the sparse unsigned index (GSI1 LOG#UNSIGNED): its tree has grown past its
 * latest checkpoint since `at`. Written once per checkpoint (the sequencer writes it only when the
 * head it read was not in the index); signing takes it out again (checkpoint-store.ts).
 */
export const unsignedUpdate = (tenantId: string, at: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: logKeys.head(tenantId),
  UpdateExpression: 'SET unsignedSince = if_not_exists(unsignedSince, :at), GSI1PK = :unsignedPk, GSI1SK = :unsignedSk',
  ExpressionAttributeValues: { ':at': at, ':unsignedPk': logKeys.unsigned(tenantId).GSI1PK, ':unsignedSk': logKeys.unsigned(tenantId).GSI1SK },
});

export const markUnsigned = async (tenantId: string, at: string): Promise<void> => {
  await db().send(new UpdateCommand(unsignedUpdate(tenantId, at)));
};
