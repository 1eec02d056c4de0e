import { rightsRequestUrl } from '../consent/portal-urls';
import type { NamedItem } from '../db/transact';
import type { LanguageCode } from '../i18n/languages';
import { composeMail, readableTime, type MailParagraph, type MailText } from '../mail/compose';
import { mailPut } from '../mail/outbox';
import { rightsMailWords } from '../words/mail-words';
import { rightsPageWords } from '../words/page-words';
import { recordedLanguage, wordsFor } from '../words/read';
import { getPublicDocument } from '../notices/store';
import type { Tenant } from '../tenants/tenant';
import { answerKeptMs, type RightsRequest } from './request';

/**
 * Whom a principal contacts about a request (Rule 9) and who is told of it: the tenant's DPO
 * email, else the contact of its published notice.
 */
export const dpoContactOf = async (tenant: Tenant): Promise<string | null> => {
  if (tenant.dpoEmail) return tenant.dpoEmail;
  const published = await getPublicDocument(tenant.tenantId);
  return typeof published?.contactEmail === 'string' ? published.contactEmail : null;
};

const principalMail = (request: RightsRequest, name: string, language: string, subject: MailText, paragraphs: MailParagraph[]): NamedItem[] =>
  request.principalEmail ? [{ name, item: mailPut(request.tenantId, composeMail(request.principalEmail, language, subject.text, paragraphs)) }] : [];

/** The tenant's words in the language of the request form, and the values every mail fills in. */
const wordsOf = async (request: RightsRequest, tenant: Tenant) => {
  // The request type's name is the rights pages' word for it.
  const words = await wordsFor(tenant.tenantId, recordedLanguage(request.language), { ...rightsMailWords, ...rightsPageWords });
  const values = {
    tenant: tenant.name,
    type: (shownIn: LanguageCode) => words.sayIn(shownIn)(`rights.typeName_${request.requestType}` as const).text,
    reference: request.requestId,
  };
  const time = (iso: string) => (shownIn: LanguageCode) => readableTime(iso, shownIn);
  const contactOf = (contact: string | null) => (shownIn: LanguageCode) => contact ?? words.sayIn(shownIn)('mail.rights.noContact', { tenant: tenant.name }).text;
  return { ...words, values, time, contactOf };
};

/** The public form's mail: the link that confirms the request (nothing reaches the tenant until then). */
export const confirmationMail = async (request: RightsRequest, tenant: Tenant, token: string): Promise<NamedItem[]> => {
  const { language, say, values, time } = await wordsOf(request, tenant);
  return principalMail(request, 'confirmation mail', language, say('mail.rights.confirmSubject', values), [
    say('mail.rights.confirmText', { ...values, confirmBy: time(request.confirmBy!), url: rightsRequestUrl(token) }),
  ]);
};

/** A request the team logged for a principal known by email: where to follow it. */
export const receivedMail = async (request: RightsRequest, tenant: Tenant, token: string, contact: string | null): Promise<NamedItem[]> => {
  const { language, say, values, time, contactOf } = await wordsOf(request, tenant);
  return principalMail(request, 'received mail', language, say('mail.rights.receivedSubject', values), [
    say('mail.rights.receivedText', { ...values, dueAt: time(request.dueAt!), url: rightsRequestUrl(token), contact: contactOf(contact) }),
  ]);
};

/** The answer: outcome and response, the link where it stays for 90 days, the DPO contact; a grievance adds the Board and its closure receipt. */
export const answerMail = async (request: RightsRequest, tenant: Tenant, token: string, contact: string | null): Promise<NamedItem[]> => {
  const { language, say, sayIn, values, time, contactOf } = await wordsOf(request, tenant);
  const paragraphs = [
    say('mail.rights.answerText', {
      ...values,
      resolvedAt: time(request.resolvedAt!),
      outcome: (shownIn) => sayIn(shownIn)(`rights.outcome_${request.outcome!}` as const).text,
      response: request.response ?? '',
      validUntil: time(new Date(Date.parse(request.resolvedAt!) + answerKeptMs).toISOString()),
      url: rightsRequestUrl(token),
      contact: contactOf(contact),
    }),
  ];
  if (request.requestType === 'GRIEVANCE') {
    paragraphs.push(say('mail.rights.boardAfterGrievance', values));
    if (request.closureReceipt) paragraphs.push(say('mail.rights.closureReceipt', { receipt: request.closureReceipt }));
  }
  return principalMail(request, 'answer mail', language, say('mail.rights.answerSubject', values), paragraphs);
};

/**
 * The team's mails (in English, like the dashboard): a request submitted, its due date a week
 * away, and overdue. They name the request and its due date, never the principal.
 */
export const dpoMail = (request: RightsRequest, contact: string | null, stage: 'SUBMITTED' | 'REMINDER' | 'OVERDUE'): NamedItem[] => {
  if (!contact) return [];
  const what = `${request.requestType.toLowerCase()} request ${request.requestId}`;
  const due = request.dueAt!.slice(0, 10);
  const mail = {
    SUBMITTED: { subject: `Rights request received (${request.requestType}): answer by ${due}`, text: `A ${what} was submitted at ${request.submittedAt} (${request.channel}). It must be answered by ${request.dueAt}.\nOpen it in the dashboard's Rights requests.` },
    REMINDER: { subject: `Rights request due in 7 days (${request.requestType}): answer by ${due}`, text: `The ${what} must be answered by ${request.dueAt}, a week from now, and is still ${request.status}.` },
    OVERDUE: { subject: `Rights request overdue (${request.requestType}): was due ${due}`, text: `The ${what} was due ${request.dueAt} and is still ${request.status}. Answer it without delay.` },
  }[stage];
  return [{ name: `DPO ${stage.toLowerCase()} mail`, item: mailPut(request.tenantId, { to: contact, ...mail }) }];
};
