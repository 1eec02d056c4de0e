import { sha256Hex } from '../crypto/hash';
import { bindingProblem, erasableFields, isErasedMarker, sha256Key, withErasedFields, type EvidenceKind, type RecordBinding, type WithdrawalBinding } from './erasure-binding';
import { canonicalJson, evidenceOf } from './proof';
import type { ConsentEvidence, ConsentRecord } from './record';
import { hashedWithdrawal } from './withdrawal-evidence';

/**
 * Erasing what identifies her in a record's or a withdrawal's evidence without losing the evidence
 * (retention, s.8(7)): the external id, the user agent and the IP address of a record, the reason
 * she typed for a withdrawal. Each is inside the hashed evidence, so once it is gone the hash cannot
 * be recomputed from what is left. At erasure the sweep logs, per record and withdrawal, a binding
 * (erasure-binding.ts): the hash the log holds for it, the hash of each erased field (keyed by the
 * record's salt in proof format 4, the salt itself erased and bound too; the plain SHA-256 in older
 * formats), and the SHA-256 (RFC 8785) of the evidence with each erased field replaced by
 * `{ sha256 }`. The binding is a leaf of the Merkle log, so the evidence shown without those values is proven to be the
 * evidence the hash covered; whoever holds a clear value puts it back in place of `{ sha256 }` and
 * recomputes the hash with any RFC 8785 implementation, no service code needed (and the value
 * never travels to the service again to be logged).
 *
 * Format 4: whoever kept the salt (shown with the evidence until the erasure) can test a candidate
 * value, as the proof hash always allowed; nobody else can, the salt being 128 random bits. Older
 * formats have no salt: anyone can test a candidate against the plain SHA-256 or the proof hash,
 * and a value of few possibilities (an IPv4 address) is found so. What goes there is the value
 * itself, and the lookup by it (docs/retention.md).
 */

/**
 * The hash that stands for an erased value: keyed by the evidence's salt when it has one (format
 * 4; the salt's own is its plain SHA-256, being unguessable), the plain SHA-256 otherwise.
 */
export const erasedValueHash = (field: string, value: string, salt: unknown): string =>
  typeof salt === 'string' && field !== 'salt' ? sha256Hex(canonicalJson({ salt, value })) : sha256Hex(value);

/**
 * The hash of each erasable field holding a value, and the SHA-256 of the evidence with those as markers;
 * undefined when none holds one. Refuses evidence that does not hash to `hash`: logging a binding
 * for altered evidence would launder it.
 */
const bindingOf = (kind: EvidenceKind, evidence: Readonly<Record<string, unknown>>, hash: string, what: string) => {
  if (sha256Hex(canonicalJson(evidence)) !== hash) throw new Error(`${what}: the evidence does not hash to its hash; nothing of it is erased`);
  const sha256s: Record<string, string> = {};
  for (const field of erasableFields[kind]) {
    const value = evidence[field];
    if (typeof value === 'string' && value !== '') sha256s[field] = erasedValueHash(field, value, evidence.salt);
  }
  if (Object.keys(sha256s).length === 0) return undefined;
  return {
    ...Object.fromEntries(Object.entries(sha256s).map(([field, sha256]) => [sha256Key(field), sha256])),
    evidenceSha256: sha256Hex(canonicalJson(withErasedFields(evidence, sha256s))),
  };
};

/** The binding of a record's evidence (its values still clear) to its proof hash; undefined when it holds none to erase. */
export const recordBinding = (evidence: ConsentEvidence, proofHash: string): RecordBinding | undefined => {
  const bound = bindingOf('record', evidence as unknown as Record<string, unknown>, proofHash, `record ${evidence.recordId}`);
  return bound && ({ recordId: evidence.recordId, proofHash, ...bound } as RecordBinding);
};

/**
 * The binding of a withdrawal's evidence (its reason still clear) to its hash; undefined when it has
 * no reason to erase. The hash is the evidence's as stored: if the item was altered since the log
 * took it, the binding names another hash than the log's, and every check refuses it.
 */
export const withdrawalBinding = (item: Record<string, unknown>): WithdrawalBinding | undefined => {
  const evidence = hashedWithdrawal(item);
  const hash = sha256Hex(canonicalJson(evidence));
  const bound = bindingOf('withdrawal', evidence, hash, `withdrawal ${evidence.withdrawalId}`);
  return bound && ({ withdrawalId: evidence.withdrawalId, hash, ...bound } as WithdrawalBinding);
};

/** Whether evidence shown with erased fields stands for `hash` by a (logged) binding. */
export const bindingHolds = (kind: EvidenceKind, shown: Readonly<Record<string, unknown>>, id: string, hash: string, binding: RecordBinding | WithdrawalBinding): boolean =>
  bindingProblem(kind, shown, sha256Hex(canonicalJson(shown)), id, hash, binding) === undefined;

/**
 * A record's evidence as it can be shown, and whether it stands for the record's proof hash: by
 * recomputing the hash or, once retention erased some of its values, by the binding it logged.
 * `recomputedHash` is always what the shown payload hashes to.
 */
export const checkedEvidence = (record: ConsentRecord, binding: RecordBinding | undefined) => {
  const payload: Record<string, unknown> = record.erasedSha256 ? withErasedFields({ ...evidenceOf(record) }, record.erasedSha256) : { ...evidenceOf(record) };
  const canonical = canonicalJson(payload);
  const recomputedHash = sha256Hex(canonical);
  if (!record.erasedSha256) return { payload, canonical, recomputedHash, matches: recomputedHash === record.proofHash };
  return { payload, canonical, recomputedHash, matches: binding !== undefined && bindingProblem('record', payload, recomputedHash, record.recordId, record.proofHash, binding) === undefined };
};

/**
 * A withdrawal's evidence as it can be shown, and the hash it stands for: what it hashes to, or once
 * retention erased its reason, the hash a (logged) binding ties it to (`matches` false, and the
 * evidence's own hash, when none does). Whether that hash is the log's is the caller's check.
 */
export const checkedWithdrawal = (item: Record<string, unknown>, binding: WithdrawalBinding | undefined) => {
  const evidence = hashedWithdrawal(item);
  const shownHash = sha256Hex(canonicalJson(evidence));
  if (!isErasedMarker(evidence.reason)) return { evidence, hash: shownHash, matches: true };
  const holds = binding !== undefined && bindingProblem('withdrawal', evidence, shownHash, evidence.withdrawalId, binding.hash, binding) === undefined;
  return { evidence, hash: holds ? binding.hash : shownHash, matches: holds };
};
