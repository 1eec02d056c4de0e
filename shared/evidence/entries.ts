import { inForce } from '../consent/record';
import { recordItemType, recordOf } from '../consent/record-item';
import { withdrawalHashOf } from '../consent/withdrawal-evidence';
import { documentItemType } from './documents';

/**
 * What the log holds: one entry per consent record, per withdrawal and per logged document (a
 * rights request's or a breach's filing: documents.ts). An entry's leaf data is the 32 raw bytes
 * of its hash (a record's proofHash; a withdrawal's hash over its canonical evidence; a document's
 * hash over its canonical text), so the log commits to exactly what the proof endpoints show.
 */
export type EntryKind = 'record' | 'withdrawal' | 'document';

export interface LogEntry {
  tenantId: string;
  kind: EntryKind;
  /** A record id or a withdrawal id (UUIDs). */
  id: string;
  /** SHA-256, hex. */
  hash: string;
  /** For a record: what the counters add once it is sequenced. */
  counts?: { noticeId: string; grantedPurposes: string[]; day: string };
}

export const withdrawalItemType = 'WithdrawalRecord';

/** What a record in force adds to the counters: its notice, its granted purposes, its day. */
export const countsOf = (noticeId: string, consentGiven: Record<string, boolean>, at: string): NonNullable<LogEntry['counts']> => ({
  noticeId,
  grantedPurposes: Object.entries(consentGiven).filter(([, granted]) => granted).map(([purposeId]) => purposeId),
  day: at.slice(0, 10),
});

/** The entry a new item of the table stands for, if it is one the log takes. */
export const entryOf = (item: Record<string, unknown>): LogEntry | undefined => {
  if (item.type === recordItemType) {
    const record = recordOf(item);
    return {
      tenantId: record.tenantId,
      kind: 'record',
      id: record.recordId,
      hash: record.proofHash,
      // A child's decision awaiting the parent is logged now but counted when it comes into force:
      // the approval's logged document carries its counts (children/approval.ts).
      ...(inForce(record) ? { counts: countsOf(record.noticeId, record.consentGiven, record.createdAt) } : {}),
    };
  }
  if (item.type === withdrawalItemType) {
    return { tenantId: String(item.tenantId), kind: 'withdrawal', id: String(item.withdrawalId), hash: withdrawalHashOf(item) };
  }
  if (item.type === documentItemType) {
    const counts = item.counts as LogEntry['counts'] | undefined;
    return { tenantId: String(item.tenantId), kind: 'document', id: String(item.documentId), hash: String(item.hash), ...(counts ? { counts } : {}) };
  }
  return undefined;
};

const entryBytes = 16 + 1 + 32;
const kindCode: Record<EntryKind, number> = { record: 1, withdrawal: 2, document: 3 };
const kindByCode = new Map(Object.entries(kindCode).map(([kind, code]) => [code, kind as EntryKind]));
const kindOf = (code: number): EntryKind => {
  const kind = kindByCode.get(code);
  if (!kind) throw new Error(`log entry of unknown kind ${code}`);
  return kind;
};

/** A sequenced batch as stored: 49 bytes per entry (id, kind, hash), about 5 KB for 100. */
export const encodeEntries = (entries: readonly Pick<LogEntry, 'kind' | 'id' | 'hash'>[]): Uint8Array => {
  const out = Buffer.alloc(entries.length * entryBytes);
  entries.forEach((entry, index) => {
    const at = index * entryBytes;
    Buffer.from(entry.id.replaceAll('-', ''), 'hex').copy(out, at);
    out[at + 16] = kindCode[entry.kind];
    Buffer.from(entry.hash, 'hex').copy(out, at + 17);
  });
  return out;
};

const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export const decodeEntries = (bytes: Uint8Array): { kind: EntryKind; id: string; hash: string }[] => {
  const buffer = Buffer.from(bytes);
  const entries: { kind: EntryKind; id: string; hash: string }[] = [];
  for (let at = 0; at + entryBytes <= buffer.length; at += entryBytes) {
    entries.push({ id: uuidOf(buffer.subarray(at, at + 16).toString('hex')), kind: kindOf(buffer[at + 16]!), hash: buffer.subarray(at + 17, at + entryBytes).toString('hex') });
  }
  return entries;
};
