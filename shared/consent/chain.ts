import { consentKeys } from './keys';
import { proofHashOf } from './proof';
import { genesisHash, type ConsentRecord } from './record';
import { queryRecords, readChainHead } from './store';

interface BrokenLink {
  seq: number;
  recordId: string | null;
  reason: string;
}

const chainRange = async (tenantId: string, from: number, to: number, visit: (record: ConsentRecord) => BrokenLink | undefined) => {
  let lastKey: Record<string, unknown> | undefined;
  do {
    const page = await queryRecords({
      IndexName: 'GSI5',
      KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': consentKeys.chainPartition(tenantId),
        ':from': consentKeys.chainPosition(from),
        ':to': consentKeys.chainPosition(to),
      },
      ExclusiveStartKey: lastKey,
    });
    for (const record of page.records) {
      const broken = visit(record);
      if (broken) return broken;
    }
    lastKey = page.lastKey;
  } while (lastKey);
  return undefined;
};

/**
 * Re-walks the tenant's chain from `from` to `to` (sequence numbers, inclusive): every record's
 * proof hash must recompute from its evidence, link to the previous record's proof hash, and
 * follow it by exactly one. Reports the first link that does not hold.
 */
export const verifyChain = async (tenantId: string, from: number, requestedTo: number | undefined) => {
  const head = await readChainHead(tenantId);
  const to = Math.min(requestedTo ?? head.seq, head.seq);
  if (head.seq === 0 || from > to) return { from, to, checked: 0, intact: true, firstBrokenLink: null };
  let expectedSeq = from;
  let previousHash: string | undefined = from === 1 ? genesisHash : undefined;
  if (from > 1) await chainRange(tenantId, from - 1, from - 1, (record) => void (previousHash = record.proofHash));
  let checked = 0;
  const broken = await chainRange(tenantId, from, to, (record) => {
    checked += 1;
    if (record.chainSeq !== expectedSeq) return { seq: expectedSeq, recordId: null, reason: `record ${expectedSeq} is missing` };
    expectedSeq += 1;
    if (proofHashOf(record) !== record.proofHash) {
      return { seq: record.chainSeq, recordId: record.recordId, reason: 'the evidence no longer hashes to the stored proof hash: it was altered' };
    }
    if (previousHash !== undefined && record.prevProofHash !== previousHash) {
      return { seq: record.chainSeq, recordId: record.recordId, reason: "prevProofHash does not match the previous record's proof hash" };
    }
    previousHash = record.proofHash;
    return undefined;
  });
  const missingTail = !broken && expectedSeq <= to ? { seq: expectedSeq, recordId: null, reason: `record ${expectedSeq} is missing` } : undefined;
  const firstBrokenLink = broken ?? missingTail ?? null;
  return { from, to, checked, intact: firstBrokenLink === null, firstBrokenLink };
};
