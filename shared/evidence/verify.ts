import { consentKeys } from '../consent/keys';
import { proofHashOf } from '../consent/proof';
import type { ConsentRecord } from '../consent/record';
import { recordOf } from '../consent/record-item';
import { withdrawalEvidenceOf, withdrawalHashOf } from '../consent/withdrawal-evidence';
import { afterWithdrawal } from '../consent/withdrawal-apply';
import { batchGetAll } from '../db/batch';
import { readArchivedCheckpoint } from './archive';
import { logOrigin, openCheckpoint } from './checkpoint';
import { documentKeys, documentProblem } from './documents';
import type { EntryKind } from './entries';
import { readBatches, readHead } from './log-store';
import { leafHash, toHex } from './merkle';
import { verificationKeys } from './signers';
import { appendLeaves } from './tiles';

export interface LogProblem {
  position: number | null;
  kind: EntryKind | 'checkpoint' | 'log';
  id: string | null;
  reason: string;
}

type Item = Record<string, unknown>;

const readItems = async (keys: Record<string, string>[]): Promise<Map<string, Item>> =>
  new Map((await batchGetAll(keys, { consistent: true })).map((item) => [`${String(item.PK)}|${String(item.SK)}`, item]));

/** The signed checkpoint is genuine: signed by our key, the body matching, and the same as its archived copy. */
const checkpointProblems = async (tenantId: string, checkpoint: { treeSize: number; rootHash: string; note: string }): Promise<LogProblem[]> => {
  const opened = openCheckpoint(checkpoint.note, (await verificationKeys()).keys);
  const problems: LogProblem[] = [];
  const problem = (reason: string) => problems.push({ position: null, kind: 'checkpoint', id: null, reason });
  if (!opened) problem('the latest checkpoint is not signed by a key of this service');
  else if (opened.origin !== logOrigin(tenantId) || opened.treeSize !== checkpoint.treeSize || toHex(opened.rootHash) !== checkpoint.rootHash) {
    problem('the latest checkpoint does not match its signed note');
  }
  const archived = await readArchivedCheckpoint(tenantId, checkpoint.treeSize);
  if (archived !== undefined && archived !== checkpoint.note) problem('the latest checkpoint differs from its archived copy');
  return problems;
};

/** Each purpose a logged withdrawal took from a record must still show as withdrawn on it. */
const erasedWithdrawal = (record: ConsentRecord, withdrawal: Item): string | undefined => {
  const evidence = withdrawalEvidenceOf(withdrawal);
  const expected = afterWithdrawal({ ...record, withdrawnPurposes: [], isWithdrawn: false }, evidence.requestedPurposeIds, evidence.withdrawnAt);
  const missing = expected.withdrawnPurposes.filter((purposeId) => !record.withdrawnPurposes.includes(purposeId));
  if (missing.length > 0) return `withdrawal ${evidence.withdrawalId} withdrew ${missing.join(', ')} from this record, which no longer shows it: the withdrawal was erased`;
  return undefined;
};

/**
 * Checks the tenant's log against its latest signed checkpoint: the checkpoint's signature (and
 * its archived copy), the root recomputed from every sequenced entry, and, for the entries at
 * positions from..to, that each record, withdrawal or logged document still exists, still hashes to its hash and
 * to the hash the log committed to, and that no logged withdrawal was undone on its records.
 * Tampering that recomputes a record's proof hash is found by the last two: the log holds the
 * original. Entries past the checkpoint are reported as pending, not checked.
 */
export const verifyLog = async (tenantId: string, from: number, requestedTo: number | undefined) => {
  const head = await readHead(tenantId);
  const checkpoint = head.checkpoint;
  const treeSize = checkpoint?.treeSize ?? 0;
  const to = Math.min(requestedTo ?? treeSize - 1, treeSize - 1);
  const problems: LogProblem[] = checkpoint ? await checkpointProblems(tenantId, checkpoint) : [];
  const entries = treeSize === 0 ? [] : (await readBatches(tenantId, 0, treeSize)).flatMap((batch) => batch.entries.map((entry, index) => ({ ...entry, position: batch.start + index })));
  const inTree = entries.filter((entry) => entry.position < treeSize);
  if (checkpoint) {
    const root = appendLeaves(0, new Map(), inTree.map((entry) => leafHash(Buffer.from(entry.hash, 'hex')))).root;
    if (inTree.length !== treeSize || toHex(root) !== checkpoint.rootHash) {
      problems.push({ position: null, kind: 'log', id: null, reason: 'the stored log no longer hashes to the signed root: its entries were altered' });
    }
  }
  const checked = inTree.filter((entry) => entry.position >= from && entry.position <= to);
  const keyOf = (entry: { kind: EntryKind; id: string }) => {
    if (entry.kind === 'record') return consentKeys.record(tenantId, entry.id);
    if (entry.kind === 'withdrawal') return consentKeys.withdrawal(tenantId, entry.id);
    return documentKeys.document(tenantId, entry.id);
  };
  const items = await readItems(checked.map(keyOf));
  const itemOf = (entry: { kind: EntryKind; id: string }) => {
    const key = keyOf(entry);
    return items.get(`${key.PK}|${key.SK}`);
  };
  const records = new Map<string, ConsentRecord>();
  for (const entry of checked) {
    const item = itemOf(entry);
    const problem = (reason: string) => problems.push({ position: entry.position, kind: entry.kind, id: entry.id, reason });
    if (!item) {
      problem(`the ${entry.kind} the log holds at this position is missing from the table`);
      continue;
    }
    if (entry.kind === 'withdrawal') {
      if (withdrawalHashOf(item) !== entry.hash) problem('the withdrawal no longer hashes to the hash the log committed to: it was altered');
      continue;
    }
    if (entry.kind === 'document') {
      const reason = documentProblem(item, entry.hash);
      if (reason) problem(reason);
      continue;
    }
    const record = recordOf(item);
    records.set(record.recordId, record);
    if (proofHashOf(record) !== record.proofHash) problem('the evidence no longer hashes to the stored proof hash: it was altered');
    else if (record.proofHash !== entry.hash) problem('the stored proof hash differs from the one the log committed to: evidence and hash were both rewritten');
  }
  for (const entry of checked.filter((candidate) => candidate.kind === 'withdrawal')) {
    const withdrawal = itemOf(entry);
    if (!withdrawal || withdrawal.state === 'IN_PROGRESS') continue;
    for (const recordId of withdrawalEvidenceOf(withdrawal).recordIds) {
      const record = records.get(recordId);
      const reason = record && erasedWithdrawal(record, withdrawal);
      if (reason) problems.push({ position: entry.position, kind: 'withdrawal', id: entry.id, reason: `record ${recordId}: ${reason}` });
    }
  }
  problems.sort((a, b) => (a.position ?? -1) - (b.position ?? -1));
  return {
    from,
    to,
    treeSize,
    checked: checked.length,
    pendingEntries: Math.max(0, head.sequenced - treeSize),
    intact: problems.length === 0,
    checkpoint: checkpoint ? { treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash, signedAt: checkpoint.signedAt, keyId: checkpoint.keyId } : null,
    problems: problems.slice(0, 100),
  };
};
