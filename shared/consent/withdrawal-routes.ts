import { clock } from '../clock';
import { writeTransaction, type NamedItem } from '../db/transact';
import { randomToken, sha256Hex } from '../crypto/hash';
import { AppError, ConflictError, NotFoundError } from '../errors';
import type { NoticeSnapshot } from '../notices/notice';
import { getVersion } from '../notices/store';
import { mailPut, type Mail } from '../mail/outbox';
import { noticeTextShown, shownLanguages } from './notice-text';
import { getTenant, requireTenant } from '../tenants/store';
import { portalLinkUrl, tenantPortalPageUrl } from './portal-urls';
import { principalHash } from './principal';
import { consentInForce, inForce, type ConsentRecord } from './record';
import { principalRecords } from './store';
import { getWithdrawalToken, withdrawalTokenPut, linkError, redeemTokenItem, type TokenItem } from './token-store';
import { checkPurposes, withdraw } from './withdrawal';
import { touchActivity } from '../retention/activity';

const isEmail = (identifier: string) => identifier.includes('@');
const activeRecords = (records: ConsentRecord[], noticeId?: string) =>
  records.filter((record) => !record.isWithdrawn && inForce(record) && (!noticeId || record.noticeId === noticeId));

/** Dashboard route: a DPO withdraws all of a principal's consent for one notice. */
export const withdrawForPrincipal = async (
  tenantId: string,
  actorUserId: string,
  input: { dataPrincipalIdentifier: string; noticeId: string; reason?: string },
) => {
  const [tenant, records] = await Promise.all([requireTenant(tenantId), principalRecords(tenantId, principalHash(input.dataPrincipalIdentifier))]);
  const current = activeRecords(records, input.noticeId);
  if (current.length === 0) {
    if (!records.some((record) => record.noticeId === input.noticeId)) throw new NotFoundError('Consent of this principal for this notice');
    throw new ConflictError('This consent is already fully withdrawn');
  }
  const result = await withdraw({
    tenant,
    records: current,
    purposeIds: [],
    method: 'DASHBOARD',
    reason: input.reason ?? null,
    actor: `user:${actorUserId}`,
    principalEmail: isEmail(input.dataPrincipalIdentifier) ? input.dataPrincipalIdentifier.trim().toLowerCase() : null,
  });
  if (!result) throw new ConflictError('This consent is already fully withdrawn');
  return result;
};


const tokenLifetimeSeconds = 7 * 86_400;

/** Dashboard route: a withdrawal link for a principal who has consent under this notice (else 404). */
export const createWithdrawalToken = async (tenantId: string, input: { dataPrincipalIdentifier: string; noticeId: string }) => {
  const hash = principalHash(input.dataPrincipalIdentifier);
  const records = await principalRecords(tenantId, hash);
  if (!records.some((record) => record.noticeId === input.noticeId)) throw new NotFoundError('Consent of this principal for this notice');
  const email = isEmail(input.dataPrincipalIdentifier) ? input.dataPrincipalIdentifier.trim().toLowerCase() : null;
  return issueWithdrawalToken({ tenantId, dataPrincipalHash: hash, noticeId: input.noticeId, principalEmail: email });
};

/**
 * A single-use link: 256 random bits, stored only as SHA-256, valid 7 days (then removed by TTL),
 * for a principal the caller has already found consent for. `mailOf`, when given, writes the mail
 * that carries the link in the same transaction as the token, so a link is stored exactly when it
 * is sent.
 */
export const issueWithdrawalToken = async (
  principal: Pick<TokenItem, 'tenantId' | 'dataPrincipalHash' | 'noticeId' | 'principalEmail'>,
  mailOf?: (link: { portalUrl: string; expiresAt: string }) => Mail,
) => {
  const { link, items } = withdrawalLinkItems(principal, mailOf);
  await writeTransaction(items);
  return link;
};

/** A new withdrawal link and the items that store it (the token, and the mail carrying it), for a caller's own transaction. */
export const withdrawalLinkItems = (
  principal: Pick<TokenItem, 'tenantId' | 'dataPrincipalHash' | 'noticeId' | 'principalEmail'>,
  mailOf?: (link: { portalUrl: string; expiresAt: string }) => Mail,
): { link: { token: string; portalUrl: string; expiresAt: string }; items: NamedItem[] } => {
  const token = randomToken(32);
  const now = clock.now();
  const expiresAt = Math.floor(now.getTime() / 1000) + tokenLifetimeSeconds;
  const item: TokenItem = { ...principal, createdAt: now.toISOString(), expiresAt };
  const link = { token, portalUrl: portalLinkUrl(token), expiresAt: new Date(expiresAt * 1000).toISOString() };
  return { link, items: [withdrawalTokenPut(sha256Hex(token), item), ...(mailOf ? [{ name: 'link mail', item: mailPut(principal.tenantId, mailOf(link)) }] : [])] };
};

const loadToken = async (token: string): Promise<TokenItem & { tokenHash: string }> => {
  const tokenHash = sha256Hex(token);
  const item = await getWithdrawalToken(tokenHash);
  if (!item) throw linkError('NOT_FOUND');
  if (item.consumedAt) throw await linkGone(item, 'USED', { usedAt: item.consumedAt });
  if (item.expiresAt <= Math.floor(clock.now().getTime() / 1000)) {
    throw await linkGone(item, 'EXPIRED', { expiredAt: new Date(item.expiresAt * 1000).toISOString() });
  }
  return { ...item, tokenHash };
};

/**
 * A spent or expired link says whose it was and where a new one is to be had, so its page can
 * send the principal on (the holder of the link is the principal it was made for).
 */
const linkGone = async (item: TokenItem, reason: 'USED' | 'EXPIRED', when: Record<string, string>): Promise<AppError> => {
  const tenant = await getTenant(item.tenantId);
  return linkError(reason, {
    tenant: tenant ? { name: tenant.name, slug: tenant.slug } : null,
    newLinkUrl: tenant ? tenantPortalPageUrl(tenant.slug) : null,
    ...when,
  });
};

/** The notice's words in one language (English where the language has none), for the portal page. */
const portalText = (snapshot: NoticeSnapshot, language: string) => {
  const text = noticeTextShown(snapshot, language);
  return {
    title: text.title,
    rightsText: text.rightsText,
    complaintText: text.complaintText,
    purposes: Object.fromEntries(text.purposes.map((purpose) => [purpose.id, { name: purpose.name, description: purpose.description }])),
  };
};

/**
 * What the portal page shows: the notice as consented to, each purpose's state, whom to
 * contact and how to complain, in every language the notice was published in. Only reads:
 * opening a link never spends it (mail scanners open links before people do).
 */
export const portalView = async (token: string) => {
  const item = await loadToken(token);
  const [tenant, records] = await Promise.all([requireTenant(item.tenantId), principalRecords(item.tenantId, item.dataPrincipalHash)]);
  const latest = records.find((record) => record.noticeId === item.noticeId);
  if (!latest) throw linkError('NOT_FOUND');
  const snapshot = await getVersion(item.tenantId, latest.lineageId, latest.noticeVersionNumber);
  const languages = snapshot ? shownLanguages(snapshot) : ['EN'];
  return {
    tenant: { name: tenant.name, slug: tenant.slug },
    notice: {
      id: latest.noticeId,
      title: snapshot?.title ?? latest.noticeTitle,
      versionNumber: latest.noticeVersionNumber,
      contactEmail: snapshot?.contactEmail ?? tenant.dpoEmail ?? null,
      contactUrl: snapshot?.contactUrl ?? null,
      rightsText: snapshot?.rightsText ?? null,
      complaintText: snapshot?.complaintText ?? null,
    },
    consentRecordId: latest.recordId,
    consentedAt: latest.createdAt,
    isWithdrawn: latest.isWithdrawn,
    isPartiallyWithdrawn: latest.isPartiallyWithdrawn,
    purposes: (snapshot?.purposes ?? []).map((purpose) => ({
      id: purpose.id,
      name: purpose.name,
      description: purpose.description,
      required: purpose.required,
      granted: consentInForce(latest)[purpose.id] === true,
      withdrawn: latest.withdrawnPurposes.includes(purpose.id),
    })),
    availableLanguages: languages,
    translations: snapshot
      ? Object.fromEntries(languages.filter((language) => language !== 'EN').map((language) => [language, portalText(snapshot, language)]))
      : {},
    expiresAt: new Date(item.expiresAt * 1000).toISOString(),
  };
};

/**
 * A confirmed visit of her link's page: the holder of a link mailed to her (or handed to her by the
 * tenant), with a gesture on the page, is the principal approaching the tenant (rule 8(1)). Only
 * her activity is written (coalesced to a write a day); an unknown, spent or expired link counts
 * nothing. Anyone could open a public page for anyone, so no unauthenticated page hit counts.
 */
export const portalVisit = async (token: string) => {
  const item = await loadToken(token);
  await touchActivity(item.tenantId, { identifierHash: item.dataPrincipalHash, at: clock.now().toISOString() });
  return { accepted: true as const };
};

/**
 * A redemption that lost to a simultaneous one finds the records changed or already withdrawn:
 * when the token is spent by now, that is what the principal is told (409, reason USED).
 */
const spentOr = async (token: string, error: AppError): Promise<AppError> => {
  await loadToken(token);
  return error;
};

/** Redeems the link: the token is spent in the withdrawal's own transaction, so exactly one redemption wins. */
export const portalWithdraw = async (token: string, input: { purposeIds?: string[]; withdrawAll: boolean; reason?: string }) => {
  const item = await loadToken(token);
  const [tenant, records] = await Promise.all([requireTenant(item.tenantId), principalRecords(item.tenantId, item.dataPrincipalHash)]);
  const current = activeRecords(records, item.noticeId);
  const purposeIds = input.withdrawAll ? [] : (input.purposeIds ?? []);
  checkPurposes(current, purposeIds, 'purposeIds');
  const result = await withdraw({
    tenant,
    records: current,
    purposeIds,
    method: 'WEB_PORTAL',
    reason: input.reason ?? null,
    actor: 'principal:portal',
    principalEmail: item.principalEmail,
    extraItems: [redeemTokenItem(item.tokenHash, clock.now().toISOString())],
  }).catch(async (error: unknown) => {
    const lostRace = error instanceof AppError && error.code === 'CONFLICT';
    throw lostRace ? await spentOr(token, error) : error;
  });
  if (!result) throw await spentOr(token, new ConflictError('Nothing is left to withdraw for this consent'));
  return result;
};
