import { SendEmailCommand, SESClient, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { clientOptions, lazyClient } from '../aws/clients';
import { deliveryConfig, engineConfig } from '../config';
import type { Mail } from './outbox';

export const buildSendEmail = (mail: Mail): SendEmailCommandInput => ({
  Source: deliveryConfig.mailFrom,
  Destination: { ToAddresses: [mail.to] },
  Message: {
    Subject: { Data: mail.subject, Charset: 'UTF-8' },
    Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, ...(mail.html ? { Html: { Data: mail.html, Charset: 'UTF-8' } } : {}) },
  },
});

/** SES through the SDK's client, made on the first mail. */
const sesClient = /* @__PURE__ */ lazyClient('ses', (endpoint) => new SESClient(clientOptions(endpoint)), () => engineConfig.sesEndpoint);

export const sendMail = async (mail: Mail): Promise<void> => {
  await (await sesClient()).send(new SendEmailCommand(buildSendEmail(mail)));
};
