import { clock } from '../clock';
import { randomToken, sha256Hex } from '../crypto/hash';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { issueReceipt } from '../evidence/receipts';
import { newTimeOrderedId } from '../ids';
import { activePointerOf, getNotice, type ActivePointer } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { attributePrincipal, type Attribution, type PrincipalClaim } from './attribution';
import { emailOf, sealContact } from './contact';
import { takeMonthlyConsent } from './monthly-volume';
import { proofHashOf } from './proof';
import { stateOf, type ChildEvidence, type ConsentRecord, type RecordChannel } from './record';
import { planChildDecision, type ChildInput } from '../children/decision';
import { policyOf } from '../children/policy';
import { requestPut } from '../children/store';
import { writeTransaction } from '../db/transact';
import { settingsOf } from './settings';
import { readRecordingItemsNow, rememberedRecordingItems, type RecordingItems } from './recording-items';
import { verifiersOf } from './settings-store';
import { principalRecords, putRecord, recordNamedPut } from './store';

export interface RecordInput {
  tenantId: string;
  /** Omitted: the tenant's published notice. */
  noticeId?: string;
  /** Who says who the principal is; attribution.ts turns it into the principal hash and the record's attribution. */
  principal: PrincipalClaim;
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
  /** Widget records get a withdrawal key: the browser's proof of possession for sdk-withdraw. */
  issueWithdrawalKey: boolean;
  /** A child's or guarded person's decision (children/decision.ts); absent for an adult's. */
  child?: ChildInput;
  /** The request field that holds the decisions (sdk-record: purposes; the dashboard: consentGiven), for a 400 naming it. */
  decisionField?: string;
}

/** The notice the consent is given against: always the tenant's published one. */
const noticeFor = async (tenantId: string, noticeId: string | undefined, pointer: ActivePointer | undefined): Promise<ActivePointer> => {
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

/** The notice, principal and attribution a consent is recorded with, decided on `items` (and for a child, what waits for the guardian). */
const decide = async (input: RecordInput, items: RecordingItems) => {
  const pointer = await noticeFor(input.tenantId, input.noticeId, items.pointer && activePointerOf(items.pointer));
  checkDecision(pointer, input);
  const verifiers = verifiersOf(items.settings);
  const principal = attributePrincipal(input.principal, settingsOf(items.settings), verifiers);
  const child = input.child
    ? planChildDecision(input.child, {
        policy: policyOf(items.settings),
        verifiers,
        consentGiven: input.consentGiven,
        decisionField: input.decisionField ?? 'consentGiven',
        secretKey: input.principal.by === 'apiKey' && input.principal.keyKind === 'secret',
        now: clock.now(),
      })
    : undefined;
  return { pointer, principal, child };
};

/**
 * Remembered state (recording-items.ts) only ever lets a request through: one it would refuse (a
 * notice it does not know as published, a purpose or language that notice lacks, a signature no
 * remembered key makes, requireVerifiedIdentity) is decided again on what is read now. So a
 * publish, a new secret key or a relaxed setting applies at once; a revoked secret key's
 * signatures, or requireVerifiedIdentity switched on, as docs/security.md states.
 */
const decideOnLatest = async (input: RecordInput) => {
  const remembered = rememberedRecordingItems(input.tenantId);
  // The request names the notice the person was shown; remembered state naming another is older than a publish.
  // A child's decision is always decided on the policy as it stands (a newly prohibited purpose, ADULTS).
  if (!remembered || input.child || (input.noticeId && remembered.pointer?.noticeId !== input.noticeId)) return decide(input, await readRecordingItemsNow(input.tenantId));
  try {
    return await decide(input, remembered);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return decide(input, await readRecordingItemsNow(input.tenantId));
  }
};

/**
 * Records a consent: one conditional PutItem of the record (idempotent by its id), nothing else
 * on the request path besides the reads, which a warm instance mostly answers from memory (above).
 * The record's proof hash covers its evidence, its attribution and its salt (proof format 4); ordering and
 * tamper evidence come from the tenant's Merkle log, which the table's stream appends it to within
 * seconds (shared/evidence/sequencer.ts), together with the counters and day buckets and the
 * consent.recorded event. No per-tenant head is read or written here, so a tenant's consents do
 * not queue behind one another. The monthly volume is taken from tokens reserved in chunks
 * (monthly-volume.ts), so it costs a write only once per chunk.
 */
export const recordConsent = async (input: RecordInput) => {
  const { pointer, principal, child } = await decideOnLatest(input);
  const { dataPrincipalHash, ...attribution } = principal;
  // An address is not a person: the external id of another visitor behind the same address is not this one's.
  const fillExternalId = input.externalId === undefined && attribution.attribution !== 'IP';
  const externalId = input.externalId ?? (fillExternalId ? ((await principalRecords(input.tenantId, dataPrincipalHash, 1))[0]?.externalId ?? null) : null);
  const now = clock.now();
  if (input.countsAgainstMonthlyLimit) {
    // The tenant (for its plan's limit) is read only when this instance reserves its next chunk.
    await takeMonthlyConsent(input.tenantId, async () => (await requireTenant(input.tenantId)).limits.monthlyConsentLimit, now);
  }
  // 256 random bits the browser keeps; only its hash is stored, and no other route shows either.
  const withdrawalKey = input.issueWithdrawalKey ? randomToken(32) : undefined;
  const built = buildRecord(input, pointer, { dataPrincipalHash, ...attribution }, externalId, now, withdrawalKey && sha256Hex(withdrawalKey), child?.child);
  const request = child?.request?.(built.recordId, input.tenantId, pointer.noticeId, dataPrincipalHash, input.language);
  const record: ConsentRecord = child ? { ...built, consentState: child.consentState, ...(request ? { guardianRequestId: request.requestId } : {}) } : built;
  // A guardian request is written with its record, in one transaction of the two: its mail and
  // event come from the table's stream (children/requested.ts), so the request costs two writes and one mail.
  if (request) await writeTransaction([recordNamedPut(record, sealedContactOf(input.principal)), requestPut(request)]);
  else await putRecord(record, sealedContactOf(input.principal));
  return {
    consentRecordId: record.recordId,
    proofHash: record.proofHash,
    status: 'recorded' as const,
    attribution: record.attribution!,
    receipt: await issueReceipt(record),
    consentState: stateOf(record),
    guardianRequestId: request?.requestId ?? null,
    ...(withdrawalKey ? { withdrawalKey } : {}),
  };
};

/**
 * The principal's email, sealed, when the record was made with an identifier that is one (and not
 * with identifierHash, which is then the principal): kept for duties that need it (consent/contact.ts).
 */
const sealedContactOf = (claim: PrincipalClaim): string | undefined => {
  const identifier = claim.by === 'staff' ? claim.identifier : claim.identifierHash === undefined ? claim.identifier : undefined;
  const email = identifier === undefined ? undefined : emailOf(identifier);
  return email === undefined ? undefined : sealContact(email);
};

const buildRecord = (
  input: RecordInput,
  pointer: ActivePointer,
  principal: { dataPrincipalHash: string } & Attribution,
  externalId: string | null,
  now: Date,
  withdrawalKeyHash: string | undefined,
  child: ChildEvidence | undefined,
): ConsentRecord => {
  const evidence = {
    tenantId: input.tenantId,
    recordId: newTimeOrderedId(now),
    noticeId: pointer.noticeId,
    noticeVersionNumber: pointer.versionNumber,
    noticeTextHash: pointer.textHashes[input.language]!,
    languageShown: input.language,
    positionShown: input.position,
    dataPrincipalHash: principal.dataPrincipalHash,
    externalId,
    consentGiven: input.consentGiven,
    createdAt: now.toISOString(),
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ?? null,
    attribution: principal.attribution,
    attributionMethod: principal.attributionMethod,
    attributedBy: principal.attributedBy,
    ...(principal.identifierSignedAt === undefined ? {} : { identifierSignedAt: principal.identifierSignedAt }),
    ...(child ? { child } : {}),
    // 128 random bits of this record alone: what keys the hashes of its values once retention erases them (record.ts, format 4).
    salt: randomToken(16),
  };
  return {
    ...evidence,
    proofVersion: 4,
    proofHash: proofHashOf({ ...evidence, proofVersion: 4 }),
    ...(withdrawalKeyHash ? { withdrawalKeyHash } : {}),
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
