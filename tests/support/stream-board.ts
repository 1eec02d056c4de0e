import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * Test files share one table, so one stream that grows through the run, and each file runs its own
 * stream readers. A reader that starts at the stream's trim horizon reads every earlier file's
 * records before its own: late in a run, on a loaded machine, that took longer than the tests wait.
 * So readers publish how far they have read here (one file per test process, a short history of
 * snapshots stamped with the wall-clock time they were taken), and a new reader starts each shard
 * after the furthest point some reader had reached before its `since`: every record up to there was
 * made before that moment, so the new reader, which hands on nothing older than `since`, skips
 * nothing it wants.
 */
interface Snapshot {
  at: number;
  shards: Record<string, string>;
}

const board = () => {
  const dir = inject('engines').streamBoardDir;
  mkdirSync(dir, { recursive: true });
  return dir;
};

const later = (a: string, b: string | undefined): boolean => b === undefined || BigInt(a) > BigInt(b);

/**
 * Per shard, where a reader that hands on nothing made before `since` may start: the furthest
 * sequence number any reader had handled by the start of `since`'s minute. The reader keeps every
 * record of that minute (DynamoDB Local stamps records to the minute), so it skips exactly what it
 * would have read and dropped.
 */
export const startAfterFor = (since: Date): Map<string, string> => furthestBy(Math.floor(since.getTime() / 60_000) * 60_000);

/** Per shard, the furthest sequence number any reader had handled by `before` (ms since the epoch). */
export const furthestBy = (before: number): Map<string, string> => {
  const furthest = new Map<string, string>();
  const dir = board();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
    let history: Snapshot[];
    try {
      history = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Snapshot[];
    } catch {
      continue; // being written (writes are renamed into place, so only a foreign file gets here)
    }
    const snapshot = history.filter((entry) => entry.at <= before).at(-1);
    for (const [shard, sequence] of Object.entries(snapshot?.shards ?? {})) {
      if (later(sequence, furthest.get(shard))) furthest.set(shard, sequence);
    }
  }
  return furthest;
};

const sources = new Set<() => ReadonlyMap<string, string>>();
const history: Snapshot[] = [];
let timer: NodeJS.Timeout | undefined;

const publish = () => {
  const shards: Record<string, string> = {};
  for (const source of sources) {
    for (const [shard, sequence] of source()) if (later(sequence, shards[shard])) shards[shard] = sequence;
  }
  history.push({ at: Date.now(), shards });
  // A minute of history at one snapshot a second: readers look 10 s back.
  if (history.length > 60) history.shift();
  const dir = board();
  const file = join(dir, `${process.pid}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(history));
  renameSync(`${file}.tmp`, file);
};

/** Publishes a reader's progress (a snapshot a second while the process runs). */
export const publishProgress = (progress: () => ReadonlyMap<string, string>) => {
  sources.add(progress);
  timer ??= setInterval(publish, 1000).unref();
};
