import { nowIso } from '../clock';
import { chainLength, queryRecords, recordRanges } from '../consent/store';
import { tryTransaction } from '../db/transact';
import { legacySequenceItems } from './log-legacy';
import { readHead } from './log-store';

const chunk = 90;

/**
 * Takes the hash-chain era into the log before anything else: the records written while consents
 * were a chain become the first leaves, in chain order, so the log also commits to the old chain
 * (and each of them keeps verifying by its own format-1 proof). They were counted when they were
 * written, so they add no counts. A tenant without a chain is just marked migrated. Conditional
 * on the head as sequencing was then, so it is safe to run from any number of places at once;
 * the batches it writes carry no tree state, and the log's first batch after them reads its right
 * edge from the tiles (sequencer.ts).
 */
export const migrateChain = async (tenantId: string): Promise<void> => {
  const length = await chainLength(tenantId);
  for (;;) {
    const head = await readHead(tenantId);
    if (head.migrated) return;
    const sequenced = head.legacy.sequenced;
    const from = sequenced + 1;
    const { records } = from <= length ? await queryRecords(recordRanges.byChainPosition(tenantId, from, Math.min(length, from + chunk - 1))) : { records: [] };
    const entries = records.map((record) => ({ tenantId, kind: 'record' as const, id: record.recordId, hash: record.proofHash }));
    // A gap in the chain (a record deleted by hand) ends the migration; verification reports the gap.
    const last = entries.length === 0 || sequenced + entries.length >= length;
    await tryTransaction(legacySequenceItems({ tenantId, start: sequenced, entries, at: nowIso(), migrated: last }));
  }
};
