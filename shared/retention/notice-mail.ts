import { openContact } from '../consent/contact';
import { tenantPortalPageUrl } from '../consent/portal-urls';
import { principalRecordsWithContact } from '../consent/store';
import { purposesShown } from '../consent/withdrawal-mails';
import { sha256Hex } from '../crypto/hash';
import type { NamedItem } from '../db/transact';
import { describeError, log } from '../log';
import { composeMail, readableTime, type MailParagraph } from '../mail/compose';
import { mailPut } from '../mail/outbox';
import { dpoContactOf } from '../notices/dpo-contact';
import { getPublicDocument } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { retentionMailWords, rightsMailWords } from '../words/mail-words';
import { recordedLanguage, wordsFor } from '../words/read';

/**
 * The principal's own notice before her data is erased (rule 8(2): at least 48 hours before, that
 * it will be erased unless she logs in, contacts the fiduciary or exercises her rights). Sent
 * when her records carry her sealed email, in the language of her latest consent and the
 * tenant's words: the tenant, the purposes by the names she was shown, what goes (their data) and
 * when (in the tenant's time zone, with UTC), and how to keep it, with the tenant's page for her
 * consent and rights and its contact. Without an email the tenant tells her (the
 * retention.notice_due webhook, which the sweep sends either way).
 */

export interface RetentionNotice {
  tenantId: string;
  identifierHash: string;
  purposeIds: readonly string[];
  dueAt: string;
}

/** The outbox id of a notice's mail: one per principal and due time, so a notice written again never queues a second. */
export const retentionNoticeMailId = (notice: RetentionNotice) => `mail_retention_${sha256Hex(`${notice.tenantId}:${notice.identifierHash}:${notice.dueAt}`).slice(0, 32)}`;

/** Where the mail sends her: the tenant's page on the service's portal (her consent and a rights request), else its notice's withdrawal page. */
const pageOf = async (tenant: { tenantId: string; slug: string }): Promise<string | null> => {
  const own = tenantPortalPageUrl(tenant.slug);
  if (own) return own;
  const published = await getPublicDocument(tenant.tenantId);
  return typeof published?.withdrawalUrl === 'string' ? published.withdrawalUrl : null;
};

/**
 * The notice's mail, as items to write in the same transaction as the notice itself (the sweep's
 * notice step): both are written or neither, and its id makes a second write fail rather than
 * queue a second mail. Nothing when she has no sealed email; a contact or words that cannot be
 * read leave her notice to the tenant's webhook rather than stop it.
 */
export const queueRetentionNoticeMail = async (notice: RetentionNotice): Promise<NamedItem[]> => {
  try {
    const rows = await principalRecordsWithContact(notice.tenantId, notice.identifierHash);
    const sealed = rows.find((row) => row.sealedContact !== undefined)?.sealedContact;
    if (!sealed) return [];
    const email = openContact(sealed, notice.identifierHash);
    const latest = [...rows].sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt))[0]?.record;
    const tenant = await requireTenant(notice.tenantId);
    const [{ language, say, sayIn }, page, contact] = await Promise.all([
      wordsFor(tenant.tenantId, recordedLanguage(latest?.languageShown), { ...retentionMailWords, 'mail.rights.noContact': rightsMailWords['mail.rights.noContact'] }),
      pageOf(tenant),
      dpoContactOf(tenant),
    ]);
    const purposes = await purposesShown(tenant.tenantId, latest, notice.purposeIds, language);
    const data = [...new Set(purposes.flatMap((purpose) => purpose.dataCategories))];
    const values = { tenant: tenant.name };
    const paragraphs: MailParagraph[] = [
      say('mail.retention.text', {
        ...values,
        dueAt: (shownIn) => readableTime(notice.dueAt, shownIn, tenant.timeZone),
        purposes: purposes.map((purpose) => purpose.name).join(', '),
        data: (shownIn) => (data.length > 0 ? data.join(', ') : sayIn(shownIn)('mail.retention.dataAll').text),
      }),
      say('mail.retention.keep', values),
      ...(page ? [say('mail.retention.link', { ...values, url: page })] : []),
      say('mail.retention.contact', { contact: (shownIn) => contact ?? sayIn(shownIn)('mail.rights.noContact', values).text }),
    ];
    const mail = composeMail(email, language, say('mail.retention.subject', values).text, paragraphs);
    return [{ name: 'retention notice mail', item: mailPut(tenant.tenantId, mail, retentionNoticeMailId(notice)) }];
  } catch (error) {
    // Names the tenant and the error only: never her email, nor her hash in a log line.
    log.warn('a retention notice mail could not be prepared; the tenant is told by webhook', { tenantId: notice.tenantId, ...describeError(error) });
    return [];
  }
};
