import { entityOf } from '../db/item';
import { consentKeys } from './keys';
import type { AttributionLevel, AttributionMethod } from './attribution-levels';
import { canonicalJson } from './proof';
import type { ErasableRecordField } from './erasure-binding';
import type { ChildEvidence, ConsentRecord, GuardianDecision, ProofVersion } from './record';
import type { ConsentState } from './states';

/**
 * How a consent record is stored. Proof formats 2 and 3 keep the item under 1 KB for a typical consent
 * (one write unit for the item and one per index entry): everything the keys already hold is
 * derived from them rather than stored twice (tenant and record id from PK/SK, creation time
 * from GSI1SK, principal hash from GSI1PK, external id from GSI3PK), hashes are 32 raw bytes
 * instead of 64 hex characters, and withdrawal fields exist only once a withdrawal happened.
 * Format 3 adds the attribution in about 20 bytes (`am`: one letter for the method, which implies
 * the level; `ab`: who vouched, a UUID as 16 bytes, a `key:` for every method but DASHBOARD's
 * `user:`; `isa`: when a signed hash was signed, Unix seconds) and, for widget records, the SHA-256 of the withdrawal key (`wk`, 32 bytes; not
 * evidence). Format 4 adds the record's salt (`sl`, as the evidence holds it: 22 characters of
 * base64url, so the erasure's condition compares it as read) and makes room for it by keeping the
 * notice and lineage ids (`nid`, `lin`) as 16 bytes each. Format 1 items (the hash-chain era) are
 * stored whole and read as they are.
 */

type Item = Record<string, unknown>;

const hex = (bytes: unknown): string => Buffer.from(bytes as Uint8Array).toString('hex');
const bytes = (value: string): Uint8Array => Buffer.from(value, 'hex');
const after = (value: unknown, prefix: string): string => String(value).slice(prefix.length);

export const recordItemType = 'ConsentRecord';

/**
 * The attribute holding the principal's sealed email (consent/contact.ts), when the record was
 * made with an email identifier: beside the record's fields, never part of its evidence.
 */
export const contactAttribute = 'ce';

const methodCodes: Record<AttributionMethod, string> = { SECRET_KEY: 'S', SIGNED_HASH: 'G', DASHBOARD: 'D', UNSIGNED_HASH: 'U', IP_ADDRESS: 'P' };
const levelOf: Record<AttributionMethod, AttributionLevel> = { SECRET_KEY: 'VERIFIED', SIGNED_HASH: 'VERIFIED', DASHBOARD: 'VERIFIED', UNSIGNED_HASH: 'CLAIMED', IP_ADDRESS: 'IP' };
const methodOfCode = new Map(Object.entries(methodCodes).map(([method, code]) => [code, method as AttributionMethod]));
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID as its 16 bytes; anything else (never written so, but read as it is) as written. */
const uuidItem = (id: string): Uint8Array | string => (uuidPattern.test(id) ? bytes(id.replaceAll('-', '')) : id);
const uuidOf = (stored: unknown): string => (typeof stored === 'string' ? stored : hex(stored).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'));

/** `key:<uuid>` or `user:<uuid>` as the 16 bytes of the UUID (the prefix follows from the method); anything else as written. */
const attributedByItem = (method: AttributionMethod, by: string): Uint8Array | string => {
  const id = by.slice(by.indexOf(':') + 1);
  const expected = `${method === 'DASHBOARD' ? 'user' : 'key'}:${id}`;
  return by === expected && uuidPattern.test(id) ? uuidItem(id) : by;
};

const attributedByOf = (method: AttributionMethod, stored: unknown): string =>
  typeof stored === 'string' ? stored : `${method === 'DASHBOARD' ? 'user' : 'key'}:${uuidOf(stored)}`;

const attributionOf = (item: Item) => {
  const method = methodOfCode.get(String(item.am));
  if (!method) throw new Error(`record ${String(item.SK)}: unknown attribution method ${String(item.am)}`);
  return { attribution: levelOf[method], attributionMethod: method, attributedBy: attributedByOf(method, item.ab) };
};

/** The item PutItem writes for a new (format 4; formats 2 and 3 in tests of old records) record. */
export const recordItem = (record: ConsentRecord): Item => {
  const { tenantId, recordId, createdAt } = record;
  return {
    ...consentKeys.record(tenantId, recordId),
    ...consentKeys.principal(tenantId, record.dataPrincipalHash, createdAt, recordId),
    ...(record.externalId ? consentKeys.external(tenantId, record.externalId, createdAt, recordId) : {}),
    type: recordItemType,
    pv: record.proofVersion,
    ...(record.proofVersion >= 3 ? { am: methodCodes[record.attributionMethod!], ab: attributedByItem(record.attributionMethod!, record.attributedBy!) } : {}),
    ...(record.proofVersion === 4 && record.salt ? { sl: record.salt } : {}),
    ...(record.identifierSignedAt === undefined ? {} : { isa: record.identifierSignedAt }),
    ...(record.withdrawalKeyHash ? { wk: bytes(record.withdrawalKeyHash) } : {}),
    // Format 4 keeps the notice and lineage ids as 16 bytes each, room for the salt under 1 KB.
    nid: record.proofVersion === 4 ? uuidItem(record.noticeId) : record.noticeId,
    nv: record.noticeVersionNumber,
    nth: bytes(record.noticeTextHash),
    lang: record.languageShown,
    pos: record.positionShown,
    cg: record.consentGiven,
    ...(record.ipAddress === null ? {} : { ip: record.ipAddress }),
    ...(record.userAgent === null ? {} : { ua: record.userAgent }),
    ph: bytes(record.proofHash),
    title: record.noticeTitle,
    lin: record.proofVersion === 4 ? uuidItem(record.lineageId) : record.lineageId,
    ch: record.channel,
    ...(record.decision === null ? {} : { dec: record.decision }),
    ...(record.requiredPurposesDeclined.length === 0 ? {} : { rpd: record.requiredPurposesDeclined }),
    ...childAttributes(record),
  };
};

/**
 * A child's record: its evidence as the canonical JSON it was hashed in (`chd`: a DynamoDB map
 * round trip could change what was hashed), its state (`cs`, absent = ACTIVE), its guardian request
 * (`grq`) and, with a majority date, its place in the majority index (keys.ts).
 */
const childAttributes = (record: ConsentRecord): Item => ({
  ...(record.child ? { chd: canonicalJson(record.child) } : {}),
  ...(record.consentState && record.consentState !== 'ACTIVE' ? { cs: record.consentState } : {}),
  ...(record.guardianRequestId ? { grq: record.guardianRequestId } : {}),
  ...(record.child?.majorityAt ? consentKeys.majority(record.tenantId, record.child.majorityAt, record.recordId) : {}),
});

const childState = (item: Item): Partial<ConsentRecord> => ({
  ...(typeof item.chd === 'string' ? { child: JSON.parse(item.chd) as ChildEvidence } : {}),
  ...(typeof item.cs === 'string' ? { consentState: item.cs as ConsentState } : {}),
  ...(typeof item.grq === 'string' ? { guardianRequestId: item.grq } : {}),
  ...(item.gdc && typeof item.gdc === 'object' ? { guardianDecision: item.gdc as GuardianDecision } : {}),
  // Retention's expiry (consent/store.ts expiryUpdate): which purposes, when, why.
  ...(Array.isArray(item.xp) ? { expiredPurposes: item.xp as string[] } : {}),
  ...(typeof item.xat === 'string' ? { expiredAt: item.xat } : {}),
  ...(typeof item.xrs === 'string' ? { expiryReason: item.xrs } : {}),
});

/**
 * Where retention keeps the SHA-256 of each value it erased from a record (32 bytes each; format 4:
 * keyed by its salt, evidence-erasure.ts), in every proof format; the value itself is gone (the
 * external id with its lookup keys, format 4's salt with the values).
 */
export const erasedAttributes = { externalId: 'xe', userAgent: 'xua', ipAddress: 'xip', salt: 'xsl' } as const satisfies Record<ErasableRecordField, string>;

/** Where each erasable value is stored: format 1 whole under its own name, formats 2 to 4 compactly (the external id only in its lookup keys, GSI3; a salt in format 4 only). */
export const valueAttributes = (proofVersion: ProofVersion): Record<ErasableRecordField, string | undefined> =>
  proofVersion === 1 ? { externalId: 'externalId', userAgent: 'userAgent', ipAddress: 'ipAddress', salt: undefined } : { externalId: undefined, userAgent: 'ua', ipAddress: 'ip', salt: 'sl' };

/** The values retention erased (evidence-erasure.ts), each as its SHA-256. */
const erasedState = (item: Item): Pick<ConsentRecord, 'erasedSha256'> => {
  const erased = Object.entries(erasedAttributes).flatMap(([field, attribute]) => (item[attribute] === undefined ? [] : [[field, hex(item[attribute])] as const]));
  return erased.length === 0 ? {} : { erasedSha256: Object.fromEntries(erased) };
};

/** Withdrawal fields, present only after a withdrawal (named as the domain names them). */
const withdrawalState = (item: Item) => ({
  withdrawnPurposes: (item.withdrawnPurposes as string[] | undefined) ?? [],
  withdrawnAt: (item.withdrawnAt as string | null | undefined) ?? null,
  isWithdrawn: item.isWithdrawn === true,
  isPartiallyWithdrawn: item.isPartiallyWithdrawn === true,
  withdrawalVersion: Number(item.withdrawalVersion ?? 0),
  ...(item.lastWithdrawalId ? { lastWithdrawalId: String(item.lastWithdrawalId) } : {}),
});

/** Formats 2 to 4: keys derived from the item's keys, hashes as bytes. */
const compact = (item: Item): ConsentRecord => {
  const tenantId = consentKeys.tenantOfRecordPartition(String(item.PK));
  if (!tenantId) throw new Error(`record ${String(item.SK)}: ${String(item.PK)} is no record partition`);
  return {
    proofVersion: item.pv === 4 ? 4 : item.pv === 3 ? 3 : 2,
    ...(item.pv === 3 || item.pv === 4 ? attributionOf(item) : {}),
    ...(item.pv === 4 ? { salt: item.sl === undefined ? null : String(item.sl) } : {}),
    ...(item.isa === undefined ? {} : { identifierSignedAt: Number(item.isa) }),
    ...(item.wk === undefined ? {} : { withdrawalKeyHash: hex(item.wk) }),
    tenantId,
    recordId: after(item.SK, consentKeys.recordPrefix),
    noticeId: uuidOf(item.nid),
    noticeVersionNumber: Number(item.nv),
    noticeTextHash: hex(item.nth),
    languageShown: String(item.lang),
    positionShown: String(item.pos),
    dataPrincipalHash: after(item.GSI1PK, consentKeys.principalPartition(tenantId, '')),
    externalId: item.GSI3PK ? after(item.GSI3PK, consentKeys.externalPartition(tenantId, '')) : null,
    consentGiven: item.cg as Record<string, boolean>,
    createdAt: String(item.GSI1SK).split('#')[0]!,
    ipAddress: item.ip === undefined ? null : String(item.ip),
    userAgent: item.ua === undefined ? null : String(item.ua),
    ...erasedState(item),
    proofHash: hex(item.ph),
    noticeTitle: String(item.title),
    lineageId: uuidOf(item.lin),
    channel: item.ch as ConsentRecord['channel'],
    decision: item.dec === undefined ? null : String(item.dec),
    requiredPurposesDeclined: (item.rpd as string[] | undefined) ?? [],
    ...withdrawalState(item),
    ...childState(item),
  };
};

/**
 * Format 1 (the hash-chain era): stored whole, read as it is, with the state the service has
 * added since (retention's expiry and erasure: a value it erased reads null).
 */
const whole = (item: Item): ConsentRecord => ({
  ...entityOf<ConsentRecord>(item),
  proofVersion: 1,
  externalId: (item.externalId as string | null | undefined) ?? null,
  ipAddress: (item.ipAddress as string | null | undefined) ?? null,
  userAgent: (item.userAgent as string | null | undefined) ?? null,
  ...withdrawalState(item),
  ...childState(item),
  ...erasedState(item),
});

/** A stored record item (any format, either layout) as the domain's record. */
export const recordOf = (item: Item): ConsentRecord => {
  const record = item.pv === 2 || item.pv === 3 || item.pv === 4 ? compact(item) : whole(item);
  return consentKeys.isLegacyRecordPartition(String(item.PK)) ? { ...record, legacyKey: true } : record;
};
