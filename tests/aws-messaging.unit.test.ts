import { createHash } from 'node:crypto';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { TranslateClient, TranslateTextCommand } from '@aws-sdk/client-translate';
import { describe, expect, it } from 'vitest';
import { AwsError } from '../shared/aws/errors';
import { buildSendEmail, sendMail } from '../shared/mail/ses';
import { buildSend, sendToQueue } from '../shared/queue/sqs';
import { buildTranslateRequest, createAmazonTranslator } from '../shared/translation/amazon-translator';
import { errorShape, fakeAwsService, jsonAnswer, sdkSend, wireOf, xmlAnswer, type FakeRequest, type Wire } from './support/aws-fake';

/**
 * Translate, SES and SQS as the functions call them in AWS, against fakes on loopback: each request
 * must carry what the SDK's own client (still installed) puts on the wire for the same input, and
 * the answers AWS documents must be read as the SDK reads them.
 */

const json = (wire: Wire) => JSON.parse(wire.body.toString('utf8')) as unknown;
const form = (wire: Wire) => [...new URLSearchParams(wire.body.toString('utf8'))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
/** The protocol headers of an awsJson request. */
const jsonHeaders = (wire: Wire) => ({ 'content-type': wire.headers['content-type'], 'x-amz-target': wire.headers['x-amz-target'] });
const only = async (requests: Promise<FakeRequest[]>, service: string): Promise<Wire> => {
  const [request, ...more] = await requests;
  expect(more).toEqual([]);
  expect(request!.signedFor).toBe(service);
  return wireOf(request!);
};

describe('Amazon Translate', () => {
  it("sends TranslateText as the SDK's client does and reads TranslatedText back", async () => {
    const text = 'Withdraw consent & "stop" <b>now</b> ☃ 100%';
    const translated = 'सहमति वापस लें & "रोकें" <b>अभी</b> ☃ 100%';
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_TRANSLATE', () => jsonAnswer({ TranslatedText: translated, SourceLanguageCode: 'en', TargetLanguageCode: 'hi' }));
    expect(await createAmazonTranslator().translate([text], 'HI')).toEqual([translated]);

    const ours = await only(fake.requests(), 'translate');
    const theirs = await sdkSend((options) => new TranslateClient(options), new TranslateTextCommand(buildTranslateRequest(text, 'HI')));
    expect(json(ours)).toEqual(json(theirs.request));
    expect(jsonHeaders(ours)).toEqual(jsonHeaders(theirs.request));
  });
});

describe('SES SendEmail (query protocol)', () => {
  const mail = {
    to: 'priya+dpo@example.in',
    subject: 'आपकी सहमति: a=b & c+d 100% ✓',
    text: 'Line one\nप्रिय उपयोगकर्ता, withdraw at https://example.in/w?a=1&b=2+3 ☃',
    html: '<p lang="hi" dir="ltr">प्रिय &amp; <a href="https://example.in/w?a=1&amp;b=2">वापस लें</a> 50% = ½</p>',
  };

  it("posts the form the SDK's client posts, field for field, with the HTML part", async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SES', () => xmlAnswer('<SendEmailResponse><SendEmailResult><MessageId>m-1</MessageId></SendEmailResult></SendEmailResponse>'));
    await sendMail(mail);
    const ours = await only(fake.requests(), 'ses');
    const theirs = await sdkSend((options) => new SESClient(options), new SendEmailCommand(buildSendEmail(mail)));
    expect(form(ours)).toEqual(form(theirs.request));
    expect(form(ours)).toContainEqual(['Message.Body.Html.Data', mail.html]);
    expect({ method: ours.method, path: ours.path }).toEqual({ method: theirs.request.method, path: theirs.request.path });
    expect(ours.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded\b/);
  });

  it('names an XML error answer as the SDK does (MessageRejected)', async () => {
    const rejected = xmlAnswer(
      '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>MessageRejected</Code><Message>Email address is not verified. The following identities failed the check in region AP-SOUTH-1: no-reply@consent-service.local</Message></Error><RequestId>r-1</RequestId></ErrorResponse>',
      400,
    );
    await fakeAwsService('AWS_ENDPOINT_URL_SES', () => rejected);
    const failure = await sendMail(mail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AwsError);
    const theirs = await sdkSend((options) => new SESClient(options), new SendEmailCommand(buildSendEmail(mail)), rejected);
    expect(errorShape(failure)).toEqual(errorShape(theirs.error));
    expect(errorShape(failure)).toMatchObject({ name: 'MessageRejected', status: 400 });
  });
});

describe('SQS SendMessage (JSON protocol)', () => {
  const queueUrl = 'https://sqs.ap-south-1.amazonaws.com/111122223333/webhook-deliveries';
  const message = { deliveryId: 'd-1', note: 'सहमति & "quotes" ☃' };
  const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
  const stored = (body: string) => jsonAnswer({ MessageId: 'm-1', MD5OfMessageBody: body === '' ? '' : md5(body) }, 200);

  it("sends the JSON the SDK's client sends", async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', ({ rawBody }) => stored(String((JSON.parse(rawBody.toString('utf8')) as { MessageBody: string }).MessageBody)));
    await sendToQueue(queueUrl, message, 30);
    const ours = await only(fake.requests(), 'sqs');
    const theirs = await sdkSend((options) => new SQSClient(options), new SendMessageCommand(buildSend(queueUrl, message, 30)), stored(JSON.stringify(message)));
    expect(theirs.error).toBeUndefined();
    expect(json(ours)).toEqual(json(theirs.request));
    expect(jsonHeaders(ours)).toEqual(jsonHeaders(theirs.request));
  });

  it('refuses an answer whose MD5OfMessageBody is not that of the body sent, as the SDK does', async () => {
    const wrong = stored('another body');
    await fakeAwsService('AWS_ENDPOINT_URL_SQS', () => wrong);
    await expect(sendToQueue(queueUrl, message)).rejects.toMatchObject({ name: 'InvalidChecksum' });
    const theirs = await sdkSend((options) => new SQSClient(options), new SendMessageCommand(buildSend(queueUrl, message)), wrong);
    expect(theirs.error).toBeDefined();
  });
});
