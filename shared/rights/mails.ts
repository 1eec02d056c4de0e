import { rightsRequestUrl } from '../consent/portal-urls';
import type { NamedItem } from '../db/transact';
import type { LanguageCode } from '../i18n/languages';
import { composeMail, readableTime, type MailParagraph, type MailText } from '../mail/compose';
import { mailPut } from '../mail/outbox';
import { formatDate, formatTime } from '../time/format';
import { rightsMailWords } from '../words/mail-words';
import { rightsPageWords } from '../words/page-words';
import { recordedLanguage, wordsFor } from '../words/read';
import type { Tenant } from '../tenants/tenant';
import { answerKeptMs, type RightsRequest } from './request';

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
  const time = (iso: string) => (shownIn: LanguageCode) => readableTime(iso, shownIn, tenant.timeZone);
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

/** How the team's mails name a request's type ("an access request") and channel, as the dashboard does. */
const requestNames: Record<RightsRequest['requestType'], string> = {
  ACCESS: 'an access request',
  CORRECTION: 'a correction request',
  COMPLETION: 'a completion request',
  UPDATING: 'an updating request',
  ERASURE: 'an erasure request',
  GRIEVANCE: 'a grievance',
  NOMINATION: 'a nomination',
};
const channelWords: Record<RightsRequest['channel'], string> = { WEB: 'on your request form', EMAIL: 'by email', PHONE: 'by phone', LETTER: 'by letter', IN_PERSON: 'in person', OTHER: 'by another channel' };
const statusWords: Record<RightsRequest['status'], string> = { UNVERIFIED: 'unconfirmed', SUBMITTED: 'not started', IN_PROGRESS: 'in progress', RESOLVED: 'resolved', EXPIRED: 'expired' };

/**
 * The team's mails (in English, like the dashboard): a request submitted, its due date a week
 * away, and overdue. They name the request and its due date in the tenant's time zone, never the
 * principal.
 */
export const dpoMail = (request: RightsRequest, dpo: { contact: string | null; timeZone?: string | undefined }, stage: 'SUBMITTED' | 'REMINDER' | 'OVERDUE'): NamedItem[] => {
  if (!dpo.contact) return [];
  const when = (iso: string | null) => formatTime(iso, { timeZone: dpo.timeZone });
  const what = requestNames[request.requestType];
  const What = what[0]!.toUpperCase() + what.slice(1);
  const due = formatDate(request.dueAt, { timeZone: dpo.timeZone });
  const reference = `Reference: ${request.requestId}. Open it in the dashboard, under Rights requests.`;
  const mail = {
    SUBMITTED: { subject: `New rights request: ${what}, to answer by ${due}`, text: `${What} was received ${channelWords[request.channel]} on ${when(request.submittedAt)}. It must be answered by ${when(request.dueAt)}.\n${reference}` },
    REMINDER: { subject: `Rights request due in 7 days: ${what}, to answer by ${due}`, text: `${What} must be answered by ${when(request.dueAt)}, a week from now, and is still ${statusWords[request.status]}.\n${reference}` },
    OVERDUE: { subject: `Rights request overdue: ${what}, due ${due}`, text: `${What} was due on ${when(request.dueAt)} and is still ${statusWords[request.status]}. Answer it without delay.\n${reference}` },
  }[stage];
  return [{ name: `DPO ${stage.toLowerCase()} mail`, item: mailPut(request.tenantId, { to: dpo.contact, ...mail }) }];
};
