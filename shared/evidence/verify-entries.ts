import { consentKeys } from '../consent/keys';
import { checkedEvidence, checkedWithdrawal } from '../consent/evidence-erasure';
import { loggedErasures, type LoggedErasures } from '../consent/logged-erasures';
import type { ConsentRecord } from '../consent/record';
import { recordOf } from '../consent/record-item';
import { withdrawalEvidenceOf } from '../consent/withdrawal-evidence';
import { afterWithdrawal } from '../consent/withdrawal-apply';
import { batchGetAll } from '../db/batch';
import { documentKeys, documentProblem } from './documents';
import type { EntryKind } from './entries';
import { positionsOf } from './log-map';
import { entryProblemKind, type LogProblem } from './log-problem';

type Item = Record<string, unknown>;

export interface PositionedEntry {
  kind: EntryKind;
  id: string;
  hash: string;
  position: number;
}

const readItems = async (keys: Record<string, string>[]): Promise<Map<string, Item>> =>
  new Map((await batchGetAll(keys, { consistent: true })).map((item) => [`${String(item.PK)}|${String(item.SK)}`, item]));

/** Each purpose a logged withdrawal took from a record must still show as withdrawn on it. */
const erasedWithdrawal = (record: ConsentRecord, withdrawal: Item): string | undefined => {
  const evidence = withdrawalEvidenceOf(withdrawal);
  const expected = afterWithdrawal({ ...record, withdrawnPurposes: [], isWithdrawn: false }, evidence.requestedPurposeIds, evidence.withdrawnAt);
  const missing = expected.withdrawnPurposes.filter((purposeId) => !record.withdrawnPurposes.includes(purposeId));
  if (missing.length > 0) return `withdrawal ${evidence.withdrawalId} withdrew ${missing.join(', ')} from this record, which no longer shows it: the withdrawal was erased`;
  return undefined;
};

/**
 * The bindings retention logged for a principal's records and withdrawals whose values it erased
 * (evidence-erasure.ts), counted only from an erasure the log holds (its hash against the log's is
 * the entry's own check): a document written beside the log binds nothing. One read per erased
 * principal.
 */
const erasuresInLog = (tenantId: string) => {
  const byPrincipal = new Map<string, Promise<LoggedErasures>>();
  const read = async (principalHash: string): Promise<LoggedErasures> => {
    const erasures = await loggedErasures(tenantId, principalHash);
    const positions = await positionsOf(tenantId, [...new Set([...erasures.records.values(), ...erasures.withdrawals.values()].map((logged) => logged.documentId))]);
    const inLog = <L extends { documentId: string }>(bindings: Map<string, L>) => new Map([...bindings].filter(([, logged]) => positions.has(logged.documentId)));
    return { ...erasures, records: inLog(erasures.records), withdrawals: inLog(erasures.withdrawals) };
  };
  return (principalHash: string): Promise<LoggedErasures> => {
    if (!byPrincipal.has(principalHash)) byPrincipal.set(principalHash, read(principalHash));
    return byPrincipal.get(principalHash)!;
  };
};

/**
 * Re-reads what each entry stands for: each record, withdrawal or logged document must still exist,
 * still hash to its hash and to the hash the log committed to, and no logged withdrawal may be
 * undone on its records. Tampering that recomputes a record's proof hash is found by the last two:
 * the log holds the original. One read per entry.
 */
export const entryProblems = async (tenantId: string, checked: readonly PositionedEntry[]): Promise<LogProblem[]> => {
  const problems: LogProblem[] = [];
  const keyOf = (entry: { kind: EntryKind; id: string }) => {
    if (entry.kind === 'record') return consentKeys.record(tenantId, entry.id);
    if (entry.kind === 'withdrawal') return consentKeys.withdrawal(tenantId, entry.id);
    return documentKeys.document(tenantId, entry.id);
  };
  const items = await readItems(checked.map(keyOf));
  // Records from before the record shards are under the tenant's own partition: read there what the shards lack.
  const missingRecords = checked.filter((entry) => entry.kind === 'record' && !items.has(`${keyOf(entry).PK}|${keyOf(entry).SK}`));
  const legacy = await readItems(missingRecords.map((entry) => consentKeys.legacyRecord(tenantId, entry.id)));
  const itemOf = (entry: { kind: EntryKind; id: string }) => {
    const key = keyOf(entry);
    const legacyKey = consentKeys.legacyRecord(tenantId, entry.id);
    return items.get(`${key.PK}|${key.SK}`) ?? (entry.kind === 'record' ? legacy.get(`${legacyKey.PK}|${legacyKey.SK}`) : undefined);
  };
  const records = new Map<string, ConsentRecord>();
  const erasuresOf = erasuresInLog(tenantId);
  for (const entry of checked) {
    const item = itemOf(entry);
    const problem = (reason: string) => problems.push({ position: entry.position, kind: entryProblemKind(entry.kind), id: entry.id, reason });
    if (!item) {
      problem(`the ${entry.kind} the log holds at this position is missing from the table`);
      continue;
    }
    if (entry.kind === 'withdrawal') {
      const erased = typeof item.reasonSha256 === 'string';
      const binding = erased ? (await erasuresOf(String(item.dataPrincipalHash))).withdrawals.get(entry.id)?.binding : undefined;
      if (checkedWithdrawal(item, binding).hash !== entry.hash) {
        problem(erased ? 'its reason was erased, and no retention.erased in the log binds its evidence without it to the hash the log committed to: it was altered' : 'the withdrawal no longer hashes to the hash the log committed to: it was altered');
      }
      continue;
    }
    if (entry.kind === 'document') {
      const reason = documentProblem(item, entry.hash);
      if (reason) problem(reason);
      continue;
    }
    const record = recordOf(item);
    records.set(record.recordId, record);
    const binding = record.erasedSha256 === undefined ? undefined : (await erasuresOf(record.dataPrincipalHash)).records.get(record.recordId)?.binding;
    if (!checkedEvidence(record, binding).matches) {
      problem(record.erasedSha256 === undefined ? 'the evidence no longer hashes to the stored proof hash: it was altered' : 'values of it were erased, and no retention.erased in the log binds its evidence without them to the stored proof hash: it was altered');
    } else if (record.proofHash !== entry.hash) problem('the stored proof hash differs from the one the log committed to: evidence and hash were both rewritten');
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
  return problems;
};
