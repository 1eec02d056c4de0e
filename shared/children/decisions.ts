import { clock } from '../clock';
import { consentInForce, type ConsentRecord, type GuardianDecision } from '../consent/record';
import { recordedEventOf } from '../consent/recorded-events';
import { guardianOutcomeUpdate } from '../consent/store';
import { withdrawalLinkItems } from '../consent/withdrawal-routes';
import { decryptSecret } from '../crypto/secret-box';
import { writeTransaction, named, type NamedItem } from '../db/transact';
import { NotFoundError } from '../errors';
import { documentPut } from '../evidence/documents';
import { countsOf } from '../evidence/entries';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { mailPut } from '../mail/outbox';
import { getVersion } from '../notices/store';
import { noticeTextShown } from '../consent/notice-text';
import { requireTenant } from '../tenants/store';
import { effectiveConsent, proveAdult, recordOfRequest, requestOfLink, type ApproveInput } from './guardian';
import { guardianReceiptMail } from './mails';
import type { GuardianRequest } from './request';
import type { RequestStatus } from './schemas';
import { requestReplace } from './store';

/** A link that lost to another decision, a resend or the expiry answers as any spent link does. */
const linkGone = () => new NotFoundError('Guardian link');

/** Each decision on a request is one logged document, the subject being the record it decides. */
const logged = (request: GuardianRequest, documentType: string, at: string, content: Record<string, unknown>, counts?: ReturnType<typeof countsOf>) =>
  documentPut({ tenantId: request.tenantId, documentType, subjectId: request.consentRecordId, at, content: { requestId: request.requestId, consentRecordId: request.consentRecordId, ...content }, ...(counts ? { counts } : {}) });

const decided = (request: GuardianRequest, status: RequestStatus, at: string, method: GuardianRequest['method']): GuardianRequest => ({ ...request, status, method, decidedAt: at, version: request.version + 1 });

const purposeNamesOf = async (record: ConsentRecord, granted: string[]) => {
  const snapshot = await getVersion(record.tenantId, record.lineageId, record.noticeVersionNumber);
  const names = new Map((snapshot ? noticeTextShown(snapshot, record.languageShown).purposes : []).map((purpose) => [purpose.id, purpose.name]));
  return granted.map((purposeId) => names.get(purposeId) ?? purposeId);
};

/**
 * The guardian approves: proved an identifiable adult by one of the offered methods, the record
 * becomes ACTIVE with attribution GUARDIAN_VERIFIED and the method. One transaction writes it all,
 * so it happens whole or not at all, and once (conditional on the link's hash and the version):
 * the request VERIFIED; the record's state; ONE logged document holding the guardian's hash, the
 * method, the hash of what proved it and the decision (counted then, as the consent comes into
 * force); consent.guardian_verified and consent.recorded; a withdrawal link for the guardian and
 * the receipt mail that carries it.
 */
export const approve = async (token: string, input: ApproveInput) => {
  const request = await requestOfLink(token);
  const record = await recordOfRequest(request);
  const now = clock.now();
  const at = now.toISOString();
  const consentGiven = effectiveConsent(record, input.consentGiven);
  const proof = await proveAdult(request, input, now);
  const tenant = await requireTenant(request.tenantId);
  const { document, item: documentItem } = logged(
    request,
    'consent.guardian-verified',
    at,
    {
      decision: 'APPROVED',
      attribution: 'GUARDIAN_VERIFIED',
      method: input.method,
      guardianHash: request.guardianHash,
      proofHash: proof.proofHash,
      recordProofHash: record.proofHash,
      consentGiven,
      ...(proof.issuer ? { issuer: proof.issuer } : {}),
      ...(input.guardianship ? { guardianship: input.guardianship } : {}),
    },
    countsOf(record.noticeId, consentGiven, at),
  );
  const decision: GuardianDecision = { method: input.method, decidedAt: at, consentGiven, documentId: document.documentId };
  const active: ConsentRecord = { ...record, consentState: 'ACTIVE', guardianDecision: decision };
  const guardianEmail = decryptSecret(request.sealedGuardianEmail);
  const granted = Object.entries(consentGiven).filter(([, given]) => given).map(([purposeId]) => purposeId);
  const purposeNames = await purposeNamesOf(record, granted);
  const receipt = withdrawalLinkItems({ tenantId: request.tenantId, dataPrincipalHash: record.dataPrincipalHash, noticeId: record.noticeId, principalEmail: guardianEmail });
  const receiptMail = await guardianReceiptMail(request, tenant.name, { at, purposeNames, reference: request.requestId, withdrawalUrl: receipt.link.portalUrl, withdrawalExpiresAt: receipt.link.expiresAt });
  const verified = newEvent(request.tenantId, 'consent.guardian_verified', {
    requestId: request.requestId,
    consentRecordId: record.recordId,
    dataPrincipalHash: record.dataPrincipalHash,
    method: input.method,
    consents: consentGiven,
    verifiedAt: at,
  });
  const items: NamedItem[] = [
    requestReplace(decided(request, 'VERIFIED', at, input.method), { version: request.version, tokenHash: request.tokenHash }, linkGone),
    guardianOutcomeUpdate(record, { state: 'ACTIVE', decision }, linkGone),
    documentItem,
    named('guardian_verified event', outboxPut(verified)),
    named('consent.recorded event', outboxPut({ ...recordedEventOf(active), timestamp: at })),
    ...receipt.items,
    named('receipt mail', mailPut(request.tenantId, receiptMail)),
  ];
  await writeTransaction(items);
  return { requestId: request.requestId, consentRecordId: record.recordId, status: 'VERIFIED' as const, consentState: 'ACTIVE' as const, decidedAt: at, consentGiven: consentInForce(active) };
};

/** The guardian refuses: the record becomes GUARDIAN_REFUSED for good, logged and announced, in one transaction. */
export const refuse = async (token: string, input: { reason?: string }) => {
  const request = await requestOfLink(token);
  const record = await recordOfRequest(request);
  const at = clock.now().toISOString();
  const { item: documentItem } = logged(request, 'consent.guardian-refused', at, { decision: 'REFUSED', guardianHash: request.guardianHash, reason: input.reason ?? null });
  await writeTransaction([
    requestReplace(decided(request, 'REFUSED', at, null), { version: request.version, tokenHash: request.tokenHash }, linkGone),
    guardianOutcomeUpdate(record, { state: 'GUARDIAN_REFUSED' }, linkGone),
    documentItem,
    named('guardian_refused event', outboxPut(newEvent(request.tenantId, 'consent.guardian_refused', { requestId: request.requestId, consentRecordId: record.recordId, dataPrincipalHash: record.dataPrincipalHash, refusedAt: at }))),
  ]);
  const none = Object.fromEntries(Object.keys(record.consentGiven).map((purposeId) => [purposeId, false]));
  return { requestId: request.requestId, consentRecordId: record.recordId, status: 'REFUSED' as const, consentState: 'GUARDIAN_REFUSED' as const, decidedAt: at, consentGiven: none };
};

/**
 * A request unanswered when its link lapsed: the record becomes GUARDIAN_EXPIRED, logged and
 * announced, in one transaction conditional on the version the sweep read (a decision made
 * meanwhile wins; the event id is the request's, so two sweeps cannot send it twice).
 */
export const expireRequest = async (request: GuardianRequest, now: Date): Promise<boolean> => {
  const at = now.toISOString();
  const { item: documentItem } = logged(request, 'consent.guardian-expired', at, { decision: 'EXPIRED', guardianHash: request.guardianHash, expiresAt: request.expiresAt });
  try {
    await writeTransaction([
      requestReplace(decided(request, 'EXPIRED', at, null), { version: request.version }, linkGone),
      guardianOutcomeUpdate({ tenantId: request.tenantId, recordId: request.consentRecordId }, { state: 'GUARDIAN_EXPIRED' }, linkGone),
      documentItem,
      named(
        'guardian_expired event',
        outboxPut(
          newEvent(
            request.tenantId,
            'consent.guardian_expired',
            { requestId: request.requestId, consentRecordId: request.consentRecordId, dataPrincipalHash: request.dataPrincipalHash, expiredAt: at },
            { id: eventIdFor('consent.guardian_expired', request.requestId), timestamp: at },
          ),
        ),
      ),
    ]);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
};
