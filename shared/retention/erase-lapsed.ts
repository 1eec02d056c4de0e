import { principalRecordsWithContact } from '../consent/store';
import { erasureUpdate, withdrawalErasureUpdate } from '../consent/erasure-store';
import { boundFields, type RecordBinding, type WithdrawalBinding } from '../consent/erasure-binding';
import { recordBinding, withdrawalBinding } from '../consent/evidence-erasure';
import { evidenceOf } from '../consent/proof';
import { stateOf, type ConsentRecord } from '../consent/record';
import { principalWithdrawalItems } from '../consent/withdrawal-store';
import { writeTransaction, type NamedItem } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { describeError, log } from '../log';
import { retentionDocumentTypes } from './documents';

/** Records and withdrawals per retention.erased entry: with the entry itself, one transaction (at most 100 items). */
const erasureChunk = 99;

/** What an erasure entry says went, in this order: the names a verifier prints. */
const erasedNames = ['sealedContact', 'externalId', 'userAgent', 'ipAddress', 'salt', 'withdrawalReason', 'withdrawalSalt', 'withdrawalEmail'] as const;
type ErasedName = (typeof erasedNames)[number];

/** One record's or withdrawal's part of an erasure: its update, its binding when values of its evidence go, and what goes. */
type Erasure =
  | { kind: 'record'; id: string; update: NamedItem; binding?: RecordBinding; erased: ErasedName[] }
  | { kind: 'withdrawal'; id: string; update: NamedItem; binding?: WithdrawalBinding; erased: ErasedName[] };

/**
 * A binding, or none when the evidence no longer hashes to its hash (altered since it was
 * written): its values then stay, as recorded, for log verification to report, and the rest of
 * her data goes. Logged without her data.
 */
const boundOrKept = <B>(bind: () => B | undefined, context: Record<string, unknown>): B | undefined => {
  try {
    return bind();
  } catch (error) {
    log.error('retention kept evidence values it cannot bind', { ...context, ...describeError(error) });
    return undefined;
  }
};

type Rows = Awaited<ReturnType<typeof principalRecordsWithContact>>;

const recordErasure = (record: ConsentRecord, sealedContact: string | undefined): Erasure | undefined => {
  // Values erased by an earlier run (a record that lapsed before) are bound by that run's entry.
  const binding = record.erasedSha256 === undefined ? boundOrKept(() => recordBinding(evidenceOf(record), record.proofHash), { tenantId: record.tenantId, recordId: record.recordId }) : undefined;
  const erased = [...(sealedContact === undefined ? [] : ['sealedContact' as const]), ...(binding ? (Object.keys(boundFields('record', binding)) as ErasedName[]) : [])];
  return erased.length === 0 ? undefined : { kind: 'record', id: record.recordId, update: erasureUpdate(record, binding, sealedContact !== undefined), binding, erased };
};

const withdrawalErasure = (item: Record<string, unknown>): Erasure | undefined => {
  const binding = boundOrKept(() => withdrawalBinding(item), { tenantId: item.tenantId, withdrawalId: item.withdrawalId });
  const erased: ErasedName[] = [
    ...(binding ? ['withdrawalReason' as const] : []),
    ...(binding?.saltSha256 ? ['withdrawalSalt' as const] : []),
    ...(typeof item.principalEmail === 'string' ? ['withdrawalEmail' as const] : []),
  ];
  return erased.length === 0 ? undefined : { kind: 'withdrawal', id: String(item.withdrawalId), update: withdrawalErasureUpdate(item, binding), binding, erased };
};

/**
 * Once every record of a principal has expired, what the service holds of her that is not
 * evidence goes: the sealed email her records carry and the email on her withdrawals (never part
 * of a hash), and the values of her evidence that identify her or that she typed: each record's
 * external id, user agent and IP address (with, in proof format 4, the salt that keys their hashes),
 * each withdrawal's reason, in every proof format (the
 * hash-chain era's too). Those are part of the hashed evidence: each record's and withdrawal's
 * binding of its evidence without them to its hash is logged with the erasure
 * (evidence-erasure.ts), so her evidence still verifies. The entry and the updates are one
 * transaction: nothing is erased unlogged, nothing logged stays. Run again (her next look after a
 * crash between her expiry and her erasure, sweeper.ts), it finishes what is left and writes nothing
 * when nothing is; each update is conditional on what it read, so two at once erase once.
 * `read`: her records with their sealed contacts, when the caller read them already.
 */
export const eraseLapsed = async (tenantId: string, identifierHash: string, runId: string, at: string, read?: Rows): Promise<void> => {
  const rows = read ?? (await principalRecordsWithContact(tenantId, identifierHash));
  if (rows.length === 0 || !rows.every(({ record }) => stateOf(record) === 'EXPIRED')) return;
  const withdrawals = await principalWithdrawalItems(tenantId, identifierHash, rows.flatMap(({ record }) => (record.lastWithdrawalId ? [record.lastWithdrawalId] : [])));
  const erasures = [...rows.map(({ record, sealedContact }) => recordErasure(record, sealedContact)), ...withdrawals.map(withdrawalErasure)].filter((erasure): erasure is Erasure => erasure !== undefined);
  for (let index = 0; index < erasures.length; index += erasureChunk) {
    const chunk = erasures.slice(index, index + erasureChunk);
    const records = chunk.filter((erasure) => erasure.kind === 'record');
    const ofWithdrawals = chunk.filter((erasure) => erasure.kind === 'withdrawal');
    const recordBindings = records.flatMap((erasure) => (erasure.binding ? [erasure.binding] : []));
    const withdrawalBindings = ofWithdrawals.flatMap((erasure) => (erasure.binding ? [erasure.binding] : []));
    const erased = erasedNames.filter((name) => chunk.some((erasure) => erasure.erased.includes(name)));
    const content = {
      identifierHash,
      runId,
      erased,
      records: records.map((erasure) => erasure.id),
      ...(ofWithdrawals.length > 0 ? { withdrawals: ofWithdrawals.map((erasure) => erasure.id) } : {}),
      ...(recordBindings.length > 0 ? { recordBindings } : {}),
      ...(withdrawalBindings.length > 0 ? { withdrawalBindings } : {}),
      reason: 'RETENTION_PERIOD_ENDED',
    };
    await writeTransaction([documentPut({ tenantId, documentType: retentionDocumentTypes.erased, subjectId: `retention:${identifierHash}`, at, content }).item, ...chunk.map((erasure) => erasure.update)]);
  }
};
