import { clock } from '../clock';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { issueReceipt } from '../evidence/receipts';
import { newTimeOrderedId } from '../ids';
import { getActivePointer, getNotice, type ActivePointer } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { sealContact } from './contact';
import { takeMonthlyConsent } from './monthly-volume';
import { proofHashOf } from './proof';
import type { ConsentRecord, RecordChannel } from './record';
import { principalRecords, putRecord } from './store';

export interface RecordInput {
  tenantId: string;
  /** Omitted: the tenant's published notice. */
  noticeId?: string;
  dataPrincipalHash: string;
  /** Set when the identifier is an email: kept sealed on the record (consent/contact.ts), never in its evidence. */
  principalEmail?: string | undefined;
  externalId?: string;
  consentGiven: Record<string, boolean>;
  ipAddress: string;
  userAgent?: string;
  language: string;
  position: string;
  channel: RecordChannel;
  decision?: string;
  /** SDK records count against the tenant's monthly consent volume. */
  countsAgainstMonthlyLimit: boolean;
}

/** The notice the consent is given against: always the tenant's published one. */
const noticeFor = async (tenantId: string, noticeId: string | undefined): Promise<ActivePointer> => {
  const pointer = await getActivePointer(tenantId);
  if (noticeId && pointer?.noticeId !== noticeId) {
    if (!(await getNotice(tenantId, noticeId))) throw new NotFoundError('Notice');
    throw new ConflictError('Consent can only be recorded against the published notice; this one is not published');
  }
  if (!pointer) throw new ConflictError('The tenant has no published notice to record consent against');
  return pointer;
};

const checkDecision = (pointer: ActivePointer, input: RecordInput) => {
  const fields: Record<string, string> = {};
  const known = new Set(pointer.purposes.map((purpose) => purpose.id));
  const unknown = Object.keys(input.consentGiven).filter((id) => !known.has(id));
  if (unknown.length > 0) fields.consentGiven = `not purposes of notice version ${pointer.versionNumber}: ${unknown.join(', ')}`;
  if (Object.keys(input.consentGiven).length === 0) fields.consentGiven = 'at least one purpose decision is required';
  if (!pointer.textHashes[input.language]) {
    fields.language = `the notice is not available in ${input.language}; available: ${Object.keys(pointer.textHashes).join(', ')}`;
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
};

/**
 * Records a consent: one conditional PutItem of the record (idempotent by its id), nothing else
 * on the request path. The record's proof hash covers its evidence alone (proof format 2);
 * ordering and tamper evidence come from the tenant's Merkle log, which the table's stream
 * appends it to within seconds (shared/evidence/sequencer.ts), together with the counters and
 * day buckets and the consent.recorded event. No per-tenant head is read or written here, so a
 * tenant's consents do not queue behind one another. The monthly volume is taken from tokens
 * reserved in chunks (monthly-volume.ts), so it costs a write only once per chunk.
 */
export const recordConsent = async (input: RecordInput) => {
  const pointer = await noticeFor(input.tenantId, input.noticeId);
  checkDecision(pointer, input);
  const externalId = input.externalId ?? (await principalRecords(input.tenantId, input.dataPrincipalHash, 1))[0]?.externalId ?? null;
  const now = clock.now();
  if (input.countsAgainstMonthlyLimit) {
    // The tenant (for its plan's limit) is read only when this instance reserves its next chunk.
    await takeMonthlyConsent(input.tenantId, async () => (await requireTenant(input.tenantId)).limits.monthlyConsentLimit, now);
  }
  const record = buildRecord(input, pointer, externalId, now);
  await putRecord(record, input.principalEmail === undefined ? undefined : sealContact(input.principalEmail));
  return { consentRecordId: record.recordId, proofHash: record.proofHash, status: 'recorded' as const, receipt: await issueReceipt(record) };
};

const buildRecord = (input: RecordInput, pointer: ActivePointer, externalId: string | null, now: Date): ConsentRecord => {
  const evidence = {
    tenantId: input.tenantId,
    recordId: newTimeOrderedId(now),
    noticeId: pointer.noticeId,
    noticeVersionNumber: pointer.versionNumber,
    noticeTextHash: pointer.textHashes[input.language]!,
    languageShown: input.language,
    positionShown: input.position,
    dataPrincipalHash: input.dataPrincipalHash,
    externalId,
    consentGiven: input.consentGiven,
    createdAt: now.toISOString(),
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ?? null,
  };
  return {
    ...evidence,
    proofVersion: 2,
    proofHash: proofHashOf(evidence),
    noticeTitle: pointer.title,
    lineageId: pointer.lineageId,
    channel: input.channel,
    decision: input.decision ?? null,
    requiredPurposesDeclined: pointer.purposes.filter((purpose) => purpose.required && input.consentGiven[purpose.id] !== true).map((purpose) => purpose.id),
    withdrawnPurposes: [],
    withdrawnAt: null,
    isWithdrawn: false,
    isPartiallyWithdrawn: false,
    withdrawalVersion: 0,
  };
};
