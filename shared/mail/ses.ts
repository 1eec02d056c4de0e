import { SESClient, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { config } from '../config';
import type { Mail } from './outbox';

let client: SESClient | undefined;

const ses = (): SESClient =>
  (client ??= new SESClient({
    region: config.region,
    ...(config.sesEndpoint ? { endpoint: config.sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }));

export const buildSendEmail = (mail: Mail): SendEmailCommandInput => ({
  Source: config.mailFrom,
  Destination: { ToAddresses: [mail.to] },
  Message: {
    Subject: { Data: mail.subject, Charset: 'UTF-8' },
    Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, ...(mail.html ? { Html: { Data: mail.html, Charset: 'UTF-8' } } : {}) },
  },
});

export const sendMail = async (mail: Mail): Promise<void> => {
  await ses().send(new SendEmailCommand(buildSendEmail(mail)));
};
