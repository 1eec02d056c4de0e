import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import { endpointOf, sendSigned } from '../aws/request';
import { xmlErrorOf } from '../aws/xml';
import { config } from '../config';
import type { Mail } from './outbox';

export const buildSendEmail = (mail: Mail): SendEmailCommandInput => ({
  Source: config.mailFrom,
  Destination: { ToAddresses: [mail.to] },
  Message: {
    Subject: { Data: mail.subject, Charset: 'UTF-8' },
    Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, ...(mail.html ? { Html: { Data: mail.html, Charset: 'UTF-8' } } : {}) },
  },
});

/** The query protocol's form: nested members dotted, list entries `.member.<n>` from 1. */
export const queryForm = (value: unknown, prefix = '', into = new URLSearchParams()): URLSearchParams => {
  if (Array.isArray(value)) value.forEach((entry, index) => queryForm(entry, `${prefix}.member.${index + 1}`, into));
  else if (value !== null && typeof value === 'object') for (const [name, member] of Object.entries(value)) queryForm(member, prefix ? `${prefix}.${name}` : name, into);
  else if (value !== undefined) into.append(prefix, String(value));
  return into;
};

/** SES v1 SendEmail (the query protocol: a signed form POST, an XML answer). */
export const sendMail = async (mail: Mail): Promise<void> => {
  const form = queryForm(buildSendEmail(mail), '', new URLSearchParams({ Action: 'SendEmail', Version: '2010-12-01' }));
  await sendSigned(
    endpointOf('ses', config.sesEndpoint, { host: 'email' }),
    { method: 'POST', path: '/', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: Buffer.from(form.toString(), 'utf8') },
    xmlErrorOf,
  );
};
