import { entityOf } from '../db/item';
import { tenantPartition } from '../tenants/keys';
import { consentKeys } from './keys';
import type { ConsentRecord } from './record';

/**
 * How a consent record is stored. Proof format 2 keeps the item under 1 KB for a typical consent
 * (one write unit for the item and one per index entry): everything the keys already hold is
 * derived from them rather than stored twice (tenant and record id from PK/SK, creation time
 * from GSI1SK, principal hash from GSI1PK, external id from GSI3PK), hashes are 32 raw bytes
 * instead of 64 hex characters, and withdrawal fields exist only once a withdrawal happened.
 * Format 1 items (the hash-chain era) are stored whole and read as they are.
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

/** The item PutItem writes for a new (format 2) record. */
export const recordItem = (record: ConsentRecord): Item => {
  const { tenantId, recordId, createdAt } = record;
  return {
    ...consentKeys.record(tenantId, recordId),
    ...consentKeys.principal(tenantId, record.dataPrincipalHash, createdAt, recordId),
    ...(record.externalId ? consentKeys.external(tenantId, record.externalId, createdAt, recordId) : {}),
    type: recordItemType,
    pv: 2,
    nid: record.noticeId,
    nv: record.noticeVersionNumber,
    nth: bytes(record.noticeTextHash),
    lang: record.languageShown,
    pos: record.positionShown,
    cg: record.consentGiven,
    ip: record.ipAddress,
    ...(record.userAgent === null ? {} : { ua: record.userAgent }),
    ph: bytes(record.proofHash),
    title: record.noticeTitle,
    lin: record.lineageId,
    ch: record.channel,
    ...(record.decision === null ? {} : { dec: record.decision }),
    ...(record.requiredPurposesDeclined.length === 0 ? {} : { rpd: record.requiredPurposesDeclined }),
  };
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

const formatTwo = (item: Item): ConsentRecord => {
  const tenantId = after(item.PK, tenantPartition(''));
  return {
    proofVersion: 2,
    tenantId,
    recordId: after(item.SK, consentKeys.recordPrefix),
    noticeId: String(item.nid),
    noticeVersionNumber: Number(item.nv),
    noticeTextHash: hex(item.nth),
    languageShown: String(item.lang),
    positionShown: String(item.pos),
    dataPrincipalHash: after(item.GSI1PK, consentKeys.principalPartition(tenantId, '')),
    externalId: item.GSI3PK ? after(item.GSI3PK, consentKeys.externalPartition(tenantId, '')) : null,
    consentGiven: item.cg as Record<string, boolean>,
    createdAt: String(item.GSI1SK).split('#')[0]!,
    ipAddress: String(item.ip),
    userAgent: item.ua === undefined ? null : String(item.ua),
    proofHash: hex(item.ph),
    noticeTitle: String(item.title),
    lineageId: String(item.lin),
    channel: item.ch as ConsentRecord['channel'],
    decision: item.dec === undefined ? null : String(item.dec),
    requiredPurposesDeclined: (item.rpd as string[] | undefined) ?? [],
    ...withdrawalState(item),
  };
};

/** A stored record item (either format) as the domain's record. */
export const recordOf = (item: Item): ConsentRecord =>
  item.pv === 2 ? formatTwo(item) : { ...entityOf<ConsentRecord>(item), proofVersion: 1, ...withdrawalState(item) };
