import type { NamedItem } from '../db/transact';
import { composeMail, readableTime } from '../mail/compose';
import { mailPut } from '../mail/outbox';
import { getVersion } from '../notices/store';
import { getPurposes } from '../purposes/store';
import { withdrawalMailWords } from '../words/mail-words';
import { recordedLanguage, wordsFor } from '../words/read';
import { noticeTextShown } from './notice-text';
import type { ConsentRecord } from './record';

/**
 * The principal's mails about withdrawing, in the language of her latest consent (its
 * languageShown), in the tenant's words: the confirmation of a withdrawal, and the single-use
 * link to the withdrawal page (asked for on the public page, or by withdraw-public when the
 * tenant confirms by email).
 */

const latestOf = (records: readonly ConsentRecord[]): ConsentRecord | undefined => [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];

/**
 * Purposes as the principal was shown them, by name and data: the latest record's notice version
 * in her language, else the purpose as stored, else its id alone (a purpose since deleted).
 * The retention notice mail names them so too (retention/notice-mail.ts).
 */
export const purposesShown = async (tenantId: string, latest: ConsentRecord | undefined, purposeIds: readonly string[], language: string): Promise<{ id: string; name: string; dataCategories: string[] }[]> => {
  const snapshot = latest ? await getVersion(tenantId, latest.lineageId, latest.noticeVersionNumber) : undefined;
  const shown = new Map((snapshot ? noticeTextShown(snapshot, language).purposes : []).map((purpose) => [purpose.id, purpose] as const));
  const missing = purposeIds.filter((id) => !shown.has(id));
  const stored = new Map((missing.length > 0 ? await getPurposes(tenantId, missing) : []).map((purpose) => [purpose.purposeId, purpose] as const));
  return purposeIds.map((id) => {
    const purpose = shown.get(id) ?? stored.get(id);
    return { id, name: purpose?.name ?? id, dataCategories: purpose?.dataCategories ?? [] };
  });
};

const purposeNames = async (tenantId: string, latest: ConsentRecord | undefined, purposeIds: string[], language: string): Promise<string[]> =>
  (await purposesShown(tenantId, latest, purposeIds, language)).map((purpose) => purpose.name);

export interface ConfirmedWithdrawal {
  tenant: { tenantId: string; name: string; timeZone?: string | undefined };
  records: readonly ConsentRecord[];
  principalEmail: string | null;
  withdrawalId: string;
  at: string;
  full: boolean;
  purposeIds: string[];
}

/** The confirmation to the principal, when she is known by email: what was withdrawn, when, and its reference. */
export const withdrawalConfirmationMail = async (withdrawal: ConfirmedWithdrawal): Promise<NamedItem[]> => {
  if (!withdrawal.principalEmail) return [];
  const latest = latestOf(withdrawal.records);
  const { language, say } = await wordsFor(withdrawal.tenant.tenantId, recordedLanguage(latest?.languageShown), withdrawalMailWords);
  const tenant = withdrawal.tenant.name;
  const scope = withdrawal.full
    ? say('mail.withdrawal.scopeAll')
    : say('mail.withdrawal.scopeSome', { purposes: (await purposeNames(withdrawal.tenant.tenantId, latest, withdrawal.purposeIds, language)).join(', ') });
  const text = say('mail.withdrawal.confirmedText', { tenant, scope: scope.text, at: (shownIn) => readableTime(withdrawal.at, shownIn, withdrawal.tenant.timeZone), reference: withdrawal.withdrawalId });
  const mail = composeMail(withdrawal.principalEmail, language, say('mail.withdrawal.confirmedSubject', { tenant }).text, [text]);
  return [{ name: 'principal mail', item: mailPut(withdrawal.tenant.tenantId, mail) }];
};

/** The mail that carries a withdrawal link, given the link once it is made (the token and its mail are written together). */
export const withdrawalLinkMail = async (tenant: { tenantId: string; name: string; timeZone?: string | undefined }, email: string, latest: ConsentRecord | undefined) => {
  const { language, say } = await wordsFor(tenant.tenantId, recordedLanguage(latest?.languageShown), withdrawalMailWords);
  return ({ portalUrl, expiresAt }: { portalUrl: string; expiresAt: string }) =>
    composeMail(email, language, say('mail.withdrawal.linkSubject', { tenant: tenant.name }).text, [
      say('mail.withdrawal.linkText', { tenant: tenant.name, url: portalUrl, expiresAt: (shownIn) => readableTime(expiresAt, shownIn, tenant.timeZone) }),
    ]);
};
