import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { config } from '../shared/config';
import { sendMail } from '../shared/mail/ses';
import { sendToQueue } from '../shared/queue/sqs';
import { createAmazonTranslator } from '../shared/translation/amazon-translator';
import { credentialOf, fakeAwsService, jsonAnswer, roleCredentials, xmlAnswer } from './support/aws-fake';
import type { Received } from './support/receiver';

/**
 * Translate, SES and SQS as the functions call them in AWS (through the SDK's clients), against
 * fakes on loopback: what reaches the service, that the role's credentials are found in the
 * environment as Lambda puts them there, how AWS's errors come back, and the timeouts and retries.
 */

const expectRoleSigned = (request: Received, service: string) =>
  expect(credentialOf(request)).toEqual({ accessKeyId: roleCredentials.accessKeyId, region: 'ap-south-1', service, sessionToken: roleCredentials.sessionToken });

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const sqsAnswer = (body: unknown, status = 200) => jsonAnswer(body, status, 'application/x-amz-json-1.0');

describe('Amazon Translate', () => {
  it('sends TranslateText with the role credentials from the environment and reads TranslatedText back', async () => {
    const text = 'Withdraw consent & "stop" <b>now</b> ☃ 100%';
    const translated = 'सहमति वापस लें & "रोकें" <b>अभी</b> ☃ 100%';
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_TRANSLATE', () => jsonAnswer({ TranslatedText: translated, SourceLanguageCode: 'en', TargetLanguageCode: 'hi' }));
    expect(await createAmazonTranslator().translate([text], 'HI')).toEqual([translated]);
    const [request, ...more] = fake.requests();
    expect(more).toEqual([]);
    expectRoleSigned(request!, 'translate');
    expect(request!.headers['x-amz-target']).toBe('AWSShineFrontendService_20170701.TranslateText');
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual({ Text: text, SourceLanguageCode: 'en', TargetLanguageCode: 'hi' });
  });
});

describe('SES SendEmail', () => {
  const mail = {
    to: 'priya+dpo@example.in',
    subject: 'आपकी सहमति: a=b & c+d 100% ✓',
    text: 'Line one\nप्रिय उपयोगकर्ता, withdraw at https://example.in/w?a=1&b=2+3 ☃',
    html: '<p lang="hi" dir="ltr">प्रिय &amp; <a href="https://example.in/w?a=1&amp;b=2">वापस लें</a> 50% = ½</p>',
  };

  it('posts the mail with both parts, from the configured sender', async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SES', () => xmlAnswer('<SendEmailResponse><SendEmailResult><MessageId>m-1</MessageId></SendEmailResult></SendEmailResponse>'));
    await sendMail(mail);
    const [request] = fake.requests();
    expectRoleSigned(request!, 'ses');
    expect(Object.fromEntries(new URLSearchParams(request!.rawBody.toString('utf8')))).toMatchObject({
      Action: 'SendEmail',
      Source: config.mailFrom,
      'Destination.ToAddresses.member.1': mail.to,
      'Message.Subject.Data': mail.subject,
      'Message.Body.Text.Data': mail.text,
      'Message.Body.Html.Data': mail.html,
    });
  });

  it("hands on SES's rejection by its name, not retried", async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SES', () =>
      xmlAnswer(
        '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>MessageRejected</Code><Message>Email address is not verified.</Message></Error><RequestId>r-1</RequestId></ErrorResponse>',
        400,
      ),
    );
    await expect(sendMail(mail)).rejects.toMatchObject({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } });
    expect(fake.requests()).toHaveLength(1);
  });
});

/** A queue of the fake itself: the SDK's SQS client sends to the host of the queue's URL. */
const queueOf = (endpoint: string, name = 'webhook-deliveries') => `${endpoint}/111122223333/${name}`;

describe('SQS SendMessage', () => {
  const message = { deliveryId: 'd-1', note: 'सहमति & "quotes" ☃' };
  const stored = (body: string) => sqsAnswer({ MessageId: 'm-1', MD5OfMessageBody: md5(body) });

  it('sends the body as JSON with its delay', async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', ({ rawBody }) => stored(String((JSON.parse(rawBody.toString('utf8')) as { MessageBody: string }).MessageBody)));
    await sendToQueue(queueOf(fake.endpoint), message, 30);
    const [request] = fake.requests();
    expectRoleSigned(request!, 'sqs');
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual({ QueueUrl: queueOf(fake.endpoint), MessageBody: JSON.stringify(message), DelaySeconds: 30 });
  });

  it('refuses an answer whose MD5OfMessageBody is not that of the body sent', async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', () => stored('another body'));
    await expect(sendToQueue(queueOf(fake.endpoint), message)).rejects.toThrow('InvalidChecksumError');
  });
});

describe('timeouts and retries', () => {

  it('fits three attempts of each call inside the function timeout', async () => {
    await fakeAwsService('AWS_ENDPOINT_URL_SQS', () => ({ status: 200 }), { CMS_FUNCTION_TIMEOUT_SECONDS: '15' });
    const { connectionMs, requestMs } = config.awsTimeouts;
    expect({ connectionMs, requestMs }).toEqual({ connectionMs: 1000, requestMs: 3000 });
    expect(3 * (connectionMs + requestMs)).toBeLessThan(15_000);
    // The sweeper's 4 minutes: an attempt still gives up after 15 s.
    process.env.CMS_FUNCTION_TIMEOUT_SECONDS = '240';
    expect(config.awsTimeouts.requestMs).toBe(15_000);
  });

  it('abandons an attempt that does not answer within the request timeout, and tries three times in all', async () => {
    // A 5 s function: a second per attempt.
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', () => ({ ...sqsAnswer({}), delayMs: 2500 }), { CMS_FUNCTION_TIMEOUT_SECONDS: '5' });
    const started = Date.now();
    await expect(sendToQueue(queueOf(fake.endpoint), {})).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(fake.requests()).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('retries throttling whose error body carries a __proto__ member, and reads an XML error with an out-of-range character reference as the error it is', async () => {
    // A JSON error body with __proto__ once replaced the error's prototype, and throttling was no longer retried.
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', (_request, index) =>
      index === 0
        ? { status: 400, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{"__proto__":{"name":"NotThrottling","$retryable":null},"__type":"com.amazonaws.sqs#ThrottlingException","message":"slow down"}' }
        : sqsAnswer({ MessageId: 'm', MD5OfMessageBody: md5('{}') }),
    );
    await sendToQueue(queueOf(fake.endpoint), {});
    expect(fake.requests()).toHaveLength(2);
    // &#xFFFFFFFF; once threw a RangeError out of the XML reader instead of SES's error.
    await fakeAwsService('AWS_ENDPOINT_URL_SES', () =>
      xmlAnswer('<ErrorResponse><Error><Type>Sender</Type><Code>MessageRejected</Code><Message>bad &#xFFFFFFFF; reference</Message></Error><RequestId>r-2</RequestId></ErrorResponse>', 400),
    );
    const failure = await sendMail({ to: 'a@example.in', subject: 's', text: 't' }).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(RangeError);
    expect(failure).toMatchObject({ $metadata: { httpStatusCode: 400 } });
  });

  it('retries a dropped connection and a throttled answer, then succeeds', async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_SQS', (_request, index) =>
      index === 0
        ? { status: 200, reset: true }
        : index === 1
          ? sqsAnswer({ __type: 'com.amazonaws.sqs#ThrottlingException', message: 'slow down' }, 400)
          : sqsAnswer({ MessageId: 'm', MD5OfMessageBody: md5('{}') }),
    );
    await sendToQueue(queueOf(fake.endpoint), {});
    expect(fake.requests()).toHaveLength(3);
  });
});
