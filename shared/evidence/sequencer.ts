import { nowIso } from '../clock';
import { tryTransaction } from '../db/transact';
import type { LogEntry } from './entries';
import { mapBucketOf } from './log-keys';
import { fixedItemsPerBatch, positionsOf, readHead, sequenceItems } from './log-store';
import { migrateChain } from './migration';

const transactionLimit = 100;
const maxAttempts = 30;

/** The longest prefix of `entries` whose map buckets and days fit one transaction. */
const chunkOf = (entries: LogEntry[]): LogEntry[] => {
  const buckets = new Set<string>();
  const days = new Set<string>();
  let taken = 0;
  for (const entry of entries) {
    buckets.add(mapBucketOf(entry.id));
    if (entry.counts) days.add(entry.counts.day);
    if (fixedItemsPerBatch + buckets.size + days.size > transactionLimit || taken === transactionLimit) break;
    taken += 1;
  }
  return entries.slice(0, Math.max(taken, 1));
};

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));

/**
 * Gives each new entry of one tenant the next position in the tenant's log. Entries already in
 * the log (the stream delivers at least once) are left out by their id, read after the head, so
 * a batch committed by anyone in between makes this commit fail on the head and look again.
 * Each chunk is one transaction conditional on the head (log-store.ts), so two sequencers racing
 * take turns instead of forking the log, and a crash leaves a chunk either whole or absent.
 */
export const sequenceEntries = async (tenantId: string, entries: LogEntry[]): Promise<number> => {
  const seen = new Set<string>();
  let pending = entries.filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
  let sequenced = 0;
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > maxAttempts) throw new Error(`log of tenant ${tenantId}: could not sequence after ${maxAttempts} attempts`);
    const head = await readHead(tenantId);
    if (!head.migrated) {
      await migrateChain(tenantId);
      continue;
    }
    const known = await positionsOf(tenantId, pending.map((entry) => entry.id));
    pending = pending.filter((entry) => !known.has(entry.id));
    if (pending.length === 0) break;
    const chunk = chunkOf(pending);
    const outcome = await tryTransaction(sequenceItems({ tenantId, start: head.sequenced, entries: chunk, at: nowIso() }));
    if (outcome === 'ok') {
      pending = pending.slice(chunk.length);
      sequenced += chunk.length;
      attempt = 0;
      continue;
    }
    // Only the head can fail: someone else sequenced first (their batch is then at our position too,
    // but the head is the transaction's first item, so it is the one named). A batch at the position
    // the head still points to was left there: the head was set back, and waiting will not help.
    if (outcome !== 'contended' && outcome.failed === 'log batch') {
      throw new Error(`log of tenant ${tenantId}: a batch is already stored at position ${head.sequenced}, where its head says the log ends: the head was set back`);
    }
    if (outcome !== 'contended' && outcome.failed !== 'log head') throw new Error(`log of tenant ${tenantId}: ${outcome.failed} failed`);
    await pause(attempt);
  }
  return sequenced;
};
