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
 * Purposes by name as the principal was shown them: the latest record's notice version in her
 * language, else the purpose's own name, else its id (a purpose since deleted).
 */
const purposeNames = async (tenantId: string, latest: ConsentRecord | undefined, purposeIds: string[], language: string): Promise<string[]> => {
  const snapshot = latest ? await getVersion(tenantId, latest.lineageId, latest.noticeVersionNumber) : undefined;
  const shown = new Map((snapshot ? noticeTextShown(snapshot, language).purposes : []).map((purpose) => [purpose.id, purpose.name]));
  const missing = purposeIds.filter((id) => !shown.has(id));
  const stored = new Map((missing.length > 0 ? await getPurposes(tenantId, missing) : []).map((purpose) => [purpose.purposeId, purpose.name]));
  return purposeIds.map((id) => shown.get(id) ?? stored.get(id) ?? id);
};

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
