import { rightsRequestUrl } from '../consent/portal-urls';
import type { NamedItem } from '../db/transact';
import { mailPut } from '../mail/outbox';
import { getPublicDocument } from '../notices/store';
import type { Tenant } from '../tenants/tenant';
import { rightsMailText, rightsOutcomeName, rightsTypeName } from './labels';
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

/** A time as the principal reads it in their language (UTC, said so). */
const readable = (iso: string, language: string): string => {
  try {
    return `${new Intl.DateTimeFormat(language === 'HI' ? 'hi-IN' : 'en-IN', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
  } catch {
    return iso;
  }
};

const principalMail = (request: RightsRequest, name: string, subject: string, text: string): NamedItem[] =>
  request.principalEmail ? [{ name, item: mailPut(request.tenantId, { to: request.principalEmail, subject, text }) }] : [];

/** The public form's mail: the link that confirms the request (nothing reaches the tenant until then). */
export const confirmationMail = (request: RightsRequest, tenant: Tenant, token: string): NamedItem[] => {
  const language = request.language;
  return principalMail(
    request,
    'confirmation mail',
    rightsMailText(language, 'confirmSubject', { tenant: tenant.name }),
    rightsMailText(language, 'confirmText', { tenant: tenant.name, type: rightsTypeName(language, request.requestType), confirmBy: readable(request.confirmBy!, language), url: rightsRequestUrl(token) }),
  );
};

/** A request the team logged for a principal known by email: where to follow it. */
export const receivedMail = (request: RightsRequest, tenant: Tenant, token: string, contact: string | null): NamedItem[] => {
  const language = request.language;
  return principalMail(
    request,
    'received mail',
    rightsMailText(language, 'receivedSubject', { tenant: tenant.name }),
    rightsMailText(language, 'receivedText', {
      tenant: tenant.name,
      type: rightsTypeName(language, request.requestType),
      reference: request.requestId,
      dueAt: readable(request.dueAt!, language),
      url: rightsRequestUrl(token),
      contact: contact ?? rightsMailText(language, 'noContact', { tenant: tenant.name }),
    }),
  );
};

/** The answer: outcome and response, the link where it stays for 90 days, the DPO contact; a grievance adds the Board and its closure receipt. */
export const answerMail = (request: RightsRequest, tenant: Tenant, token: string, contact: string | null): NamedItem[] => {
  const language = request.language;
  const values = { tenant: tenant.name };
  const paragraphs = [
    rightsMailText(language, 'answerText', {
      ...values,
      type: rightsTypeName(language, request.requestType),
      reference: request.requestId,
      resolvedAt: readable(request.resolvedAt!, language),
      outcome: rightsOutcomeName(language, request.outcome!),
      response: request.response ?? '',
      validUntil: readable(new Date(Date.parse(request.resolvedAt!) + answerKeptMs).toISOString(), language),
      url: rightsRequestUrl(token),
      contact: contact ?? rightsMailText(language, 'noContact', values),
    }),
  ];
  if (request.requestType === 'GRIEVANCE') {
    paragraphs.push(rightsMailText(language, 'boardAfterGrievance', values));
    if (request.closureReceipt) paragraphs.push(rightsMailText(language, 'closureReceipt', { receipt: request.closureReceipt }));
  }
  return principalMail(request, 'answer mail', rightsMailText(language, 'answerSubject', values), paragraphs.join('\n\n'));
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
