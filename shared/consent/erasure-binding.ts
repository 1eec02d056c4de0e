/**
 * What a logged erasure binds, and when evidence shown with erased fields stands for the hash the
 * log committed to (retention, s.8(7); docs/retention.md). Pure and free of any crypto library, so
 * the dashboard's Proof check (WebCrypto) runs the same rule as the service; the offline scripts
 * (scripts/evidence-checks.mjs) hold the same rule in plain JavaScript.
 *
 * When retention erases a principal's data, each erased field of a record's or a withdrawal's
 * evidence is shown as `{ "sha256": <hash> }`, and the logged retention.erased binds, per entry:
 * its id, the hash the log holds for it (a record's proof hash, a withdrawal's hash), the hash of
 * each erased field (`<field>Sha256`) and the SHA-256 of the RFC 8785 form of the evidence as
 * shown (`evidenceSha256`). Only the fields below can be erased: what she typed or what identifies
 * her, her device or her account with the tenant, and the salt that keys their hashes. Never a
 * choice, a purpose, a time, a notice or an id the service gave: a binding can hide a value, never
 * a decision, a record or a change to one.
 *
 * The hash of an erased value: in evidence holding a `salt` (a record of proof format 4, a
 * withdrawal with a reason made since: 128 random bits of that entry), the SHA-256 of the RFC 8785
 * form of `{ "salt": <salt>, "value": <value> }`, and the salt, erased with them, as the SHA-256
 * of its own text; in evidence without one (older formats), the SHA-256 of the value. A salted
 * hash cannot be searched by hashing candidates (every IPv4 address, common user agents), nor can
 * the proof hash; an unsalted one can, and is all that records made before format 4, and
 * withdrawals before their salt, have. These checks need not tell which: whoever holds the clear
 * values (and the salt) puts them back and recomputes the proof hash.
 */
export const erasableFields = {
  record: ['externalId', 'userAgent', 'ipAddress', 'salt'],
  withdrawal: ['reason', 'salt'],
} as const;

export type EvidenceKind = keyof typeof erasableFields;
export type ErasableRecordField = (typeof erasableFields.record)[number];

/** An erased field as the evidence shows it. */
export interface ErasedMarker {
  sha256: string;
}

/** A record's binding, as retention.erased logs it (recordBindings; `externalIds` in erasures logged before user agents and IP addresses were erased). */
export interface RecordBinding {
  recordId: string;
  proofHash: string;
  externalIdSha256?: string;
  userAgentSha256?: string;
  ipAddressSha256?: string;
  /** Format 4: its salt's SHA-256; each other field's is keyed by the salt. */
  saltSha256?: string;
  evidenceSha256: string;
}

/** A withdrawal's binding, as retention.erased logs it (withdrawalBindings): `hash` is the withdrawal's leaf data in the log. */
export interface WithdrawalBinding {
  withdrawalId: string;
  hash: string;
  reasonSha256?: string;
  /** A withdrawal with a salt: its salt's SHA-256; the reason's is keyed by the salt. */
  saltSha256?: string;
  evidenceSha256: string;
}

export type Binding = RecordBinding | WithdrawalBinding;

const keysOf = { record: { id: 'recordId', hash: 'proofHash' }, withdrawal: { id: 'withdrawalId', hash: 'hash' } } as const;

/** The binding's name for a field's SHA-256: `externalIdSha256`, `reasonSha256`. */
export const sha256Key = (field: string): string => `${field}Sha256`;

export const isErasedMarker = (value: unknown): value is ErasedMarker =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { sha256?: unknown }).sha256 === 'string';

/** The evidence with each erased field as its marker. */
export const withErasedFields = <T extends object>(evidence: T, sha256s: Readonly<Record<string, string>>): T =>
  ({ ...evidence, ...Object.fromEntries(Object.entries(sha256s).map(([field, sha256]) => [field, { sha256 }])) }) as T;

/** The erased fields a binding names, each with its SHA-256, in the order erasableFields lists them. */
export const boundFields = (kind: EvidenceKind, binding: Binding): Record<string, string> => {
  const named = binding as unknown as Record<string, unknown>;
  return Object.fromEntries(erasableFields[kind].flatMap((field) => (typeof named[sha256Key(field)] === 'string' ? [[field, named[sha256Key(field)] as string]] : [])));
};

/**
 * Why evidence shown with erased fields (`shown`, whose RFC 8785 form hashes to `shownSha256`) does
 * not stand for entry `id` under the hash `hash` by `binding`; undefined when it does. The binding
 * must name this entry and hash, name only erasable fields, at least one; each field it names must
 * show as its marker with that SHA-256, and none it does not name may show as erased; a salt may
 * not show in the clear beside erased values (they could be searched by it); and the evidence as
 * shown must be what it bound. What is not erased is covered by `evidenceSha256`: a choice
 * altered, another value's hash swapped in, a field dropped or added, all change it.
 */
export const bindingProblem = (kind: EvidenceKind, shown: Readonly<Record<string, unknown>>, shownSha256: string, id: string, hash: string, binding: Binding): string | undefined => {
  const keys = keysOf[kind];
  const named = binding as unknown as Record<string, unknown>;
  if (named[keys.id] !== id || shown[keys.id] !== id) return `it binds another ${kind} than ${id}`;
  if (named[keys.hash] !== hash) return `it binds ${kind} ${id} to another hash (${String(named[keys.hash])}) than ${hash}`;
  const allowed = new Set<string>([keys.id, keys.hash, 'evidenceSha256', ...erasableFields[kind].map(sha256Key)]);
  const stray = Object.keys(named).find((key) => !allowed.has(key));
  if (stray !== undefined) return `it names ${stray}, which is no field of a ${kind} that retention may erase`;
  if (Object.keys(boundFields(kind, binding)).length === 0) return 'it binds no erased field';
  for (const field of erasableFields[kind]) {
    const bound = named[sha256Key(field)];
    const value = shown[field];
    if (bound === undefined && isErasedMarker(value)) return `its ${field} shows as erased, and the binding does not name it`;
    if (bound !== undefined && !(isErasedMarker(value) && value.sha256 === bound)) return `its ${field} is not the erased value the binding names`;
  }
  if (typeof shown.salt === 'string') return 'its salt shows in the clear beside erased values, which it keys: they were not erased';
  if (named.evidenceSha256 !== shownSha256) return `the evidence shown is not the evidence it bound to ${kind === 'record' ? 'the proof hash' : 'its hash'}: the evidence was altered`;
  return undefined;
};
