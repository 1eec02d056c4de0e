import type * as z from 'zod/mini';
import { clock } from '../clock';
import { noticeTextShown } from '../consent/notice-text';
import { canonicalJson } from '../consent/proof';
import type { ConsentRecord } from '../consent/record';
import { getRecord } from '../consent/store';
import { safeEqual, sha256Hex } from '../crypto/hash';
import { NotFoundError, ValidationError } from '../errors';
import { getVersion } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { adultAge } from './fourth-schedule';
import { policyOf } from './policy';
import { getSettingsItem } from '../consent/settings-store';
import { requestIdOfToken, tokenHashOf, type GuardianRequest } from './request';
import type { approveBody } from './schemas';
import { getRequest } from './store';
import { verifyVirtualToken } from './virtual-token';
import { guardianPageWords } from '../words/children-words';
import { recordedLanguage, wordsFor } from '../words/read';

/**
 * The guardian's link: found by the request id it carries, then its hash compared (in constant
 * time) with the current link's. An unknown link, a voided one (a resend made a new one), one of a
 * request already decided or expired: all the same 404, so the answer tells a guesser nothing.
 */
export const requestOfLink = async (token: string): Promise<GuardianRequest> => {
  const request = await getRequest(requestIdOfToken(token));
  const valid = request && safeEqual(request.tokenHash, tokenHashOf(token)) && request.status === 'PENDING' && Date.parse(request.expiresAt) > clock.now().getTime();
  if (!valid) throw new NotFoundError('Guardian link');
  return request;
};

/** The record a request is about (a request always has one: they were written together). */
export const recordOfRequest = async (request: GuardianRequest): Promise<ConsentRecord> => {
  const record = await getRecord(request.tenantId, request.consentRecordId, true);
  if (!record) throw new NotFoundError('Consent record');
  return record;
};

/**
 * What the guardian's page shows: the notice as the child saw it (in the child's language), the
 * child's choices purpose by purpose, which are exempt, the methods offered and until when. Only
 * reads: opening the link never spends it (mail scanners open links before people do). Nothing
 * here proves anything: the page holds no secret beyond the link itself.
 */
export const guardianView = async (token: string) => {
  const request = await requestOfLink(token);
  const [record, tenant, settings] = await Promise.all([recordOfRequest(request), requireTenant(request.tenantId), getSettingsItem(request.tenantId)]);
  const snapshot = await getVersion(request.tenantId, record.lineageId, record.noticeVersionNumber);
  if (!snapshot) throw new NotFoundError('Notice version');
  const text = noticeTextShown(snapshot, record.languageShown);
  const exempt = new Set((record.child?.exemptions ?? []).map((entry) => entry.purposeId));
  return {
    tenant: { name: tenant.name },
    principalStatus: request.principalStatus,
    language: record.languageShown,
    notice: {
      id: record.noticeId,
      title: text.title,
      introText: text.introText,
      versionNumber: record.noticeVersionNumber,
      contactEmail: text.contactEmail ?? null,
      rightsText: text.rightsText ?? null,
      complaintText: text.complaintText ?? null,
    },
    purposes: text.purposes.map((purpose) => ({
      id: purpose.id,
      name: purpose.name,
      description: purpose.description,
      required: snapshot.purposes.find((shown) => shown.id === purpose.id)?.required === true,
      granted: record.consentGiven[purpose.id] === true,
      exempt: exempt.has(purpose.id),
    })),
    methods: request.methods,
    issuers: request.methods.includes('VIRTUAL_TOKEN') ? policyOf(settings).tokenIssuers.map((issuer) => issuer.issuer) : [],
    requestedAt: request.createdAt,
    expiresAt: request.expiresAt,
    words: await guardianPageWordsIn(request.tenantId, record.languageShown),
  };
};

/**
 * The page's words in the child's language, from the tenant's label sets (English, so marked,
 * where the language shows no word of its own), with their `{name}` slots for the page to fill.
 */
const guardianPageWordsIn = async (tenantId: string, recorded: string) => {
  const { language, say } = await wordsFor(tenantId, recordedLanguage(recorded), guardianPageWords);
  const keys = Object.keys(guardianPageWords) as (keyof typeof guardianPageWords)[];
  const said = keys.map((key) => [key, say(key)] as const);
  return { language, words: Object.fromEntries(said.map(([key, word]) => [key, word.text])), english: said.filter(([, word]) => word.language !== language).map(([key]) => key) };
};

export type ApproveInput = z.output<typeof approveBody>;

/**
 * Rule 10(1)(b)(i): the person states her name and year of birth and declares she is the parent
 * or guardian; the link proves she holds the mailbox. "18 or over" is checked on the latest
 * birthday the year allows (31 December), so nobody under 18 passes however the year is read.
 */
const checkAdultByYear = (birthYear: number, now: Date) => {
  const youngestBirthday = Date.UTC(birthYear + adultAge, 11, 31);
  if (youngestBirthday > now.getTime()) throw new ValidationError({ birthYear: `a parent or guardian is an adult: 18 or over (rule 10(2)(a)); born in ${birthYear}, that is not certain yet` });
};

/**
 * Proves, by the method the guardian chose among those offered, that an identifiable adult acts,
 * and returns the SHA-256 of what proved it (kept in the log instead of the proof itself, which may
 * hold personal data): the attestation as verified at recording, the declaration, or the token.
 */
export const proveAdult = async (request: GuardianRequest, input: ApproveInput, now: Date): Promise<{ proofHash: string; issuer?: string }> => {
  if (!request.methods.includes(input.method)) throw new ValidationError({ method: `not offered for this request; offered: ${request.methods.join(', ')}` });
  if (request.principalStatus === 'GUARDED' && !input.guardianship) throw new ValidationError({ guardianship: 'required for a lawful guardian: the court or authority that appointed you, and the order (rule 11)' });
  if (request.principalStatus === 'CHILD' && input.guardianship) throw new ValidationError({ guardianship: 'only for the lawful guardian of a person with a disability' });
  switch (input.method) {
    case 'TENANT_ATTESTED':
      return { proofHash: sha256Hex(canonicalJson(request.attestation)) };
    case 'SELF_DECLARED':
      checkAdultByYear(input.birthYear, now);
      return { proofHash: sha256Hex(canonicalJson({ name: input.name, birthYear: input.birthYear, declaration: input.declaration })) };
    case 'VIRTUAL_TOKEN': {
      const { issuer } = await verifyVirtualToken(input.token, request.tenantId, policyOf(await getSettingsItem(request.tenantId)), now);
      return { proofHash: sha256Hex(input.token), issuer };
    }
  }
};

/** What comes into force: the child's grants, less what the guardian switched off; a guardian cannot grant what the child did not. */
export const effectiveConsent = (record: ConsentRecord, changes: Record<string, boolean> | undefined): Record<string, boolean> => {
  const unknown = Object.keys(changes ?? {}).filter((purposeId) => !(purposeId in record.consentGiven));
  const added = Object.entries(changes ?? {}).filter(([purposeId, given]) => given && record.consentGiven[purposeId] !== true).map(([purposeId]) => purposeId);
  if (unknown.length > 0) throw new ValidationError({ consentGiven: `not purposes of this decision: ${unknown.join(', ')}` });
  if (added.length > 0) throw new ValidationError({ consentGiven: `the child did not grant these, so they cannot be approved: ${added.join(', ')}` });
  return Object.fromEntries(Object.entries(record.consentGiven).map(([purposeId, given]) => [purposeId, given && changes?.[purposeId] !== false]));
};

