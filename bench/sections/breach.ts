import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import { processIntimationMessage, type IntimationMessage } from '../../shared/breaches/worker';
import { config } from '../../shared/config';
import { sealContact } from '../../shared/consent/contact';
import { proofHashOf } from '../../shared/consent/proof';
import { principalHash } from '../../shared/consent/principal';
import type { ConsentRecord } from '../../shared/consent/record';
import { recordPut } from '../../shared/consent/store';
import { drainOutbox } from '../../shared/events/drain';
import { newTimeOrderedId } from '../../shared/ids';
import { sqs } from '../../infra/local/sqs';
import { putItems, type BenchTenant } from '../fixtures';
import { expectData, requireRoute } from '../invoke';
import { combine, describeAccesses, describeCalls, describeSqs, describeUnits, measure, type Work } from '../meter';
import { printTable } from '../report';
import type { Settings } from '../settings';

export interface BreachResult {
  principals: number;
  mailed: number;
  viaTenant: number;
  batchSize: number;
  /** From the POST to the run being DONE: resolution and every batch, two messages worked at a time. */
  intimateMs: number;
  principalsPerSecond: number;
  /** Everything the POST and the queued steps did, and per principal. */
  work: Work;
  wruPerPrincipal: number;
  rruPerPrincipal: number;
  /** Sending the queued mails through the outbox (lease, SES, mark sent), measured on a sample. */
  mailSample: number;
  mailWork: Work;
  wruPerMail: number;
  mailsPerSecond: number;
}

/**
 * The consent records of `count` principals to the tenant's first purpose, written straight through
 * the consent store's own item builder (sealed emails on `emailShare`, a fifth consenting in
 * Hindi): the bench measures the work on them (a breach intimation, a retention day), not
 * recording, which has its own sections. Answers how many have an email, and every principal's hash.
 */
export const seedPrincipals = async (tenant: BenchTenant, count: number, emailShare: number): Promise<{ mailable: number; hashes: string[] }> => {
  const [purposeId] = tenant.purposeIds as [string];
  const principals = Array.from({ length: count }, (_, index) => {
    const email = index < count * emailShare ? `principal-${index}-${randomBytes(3).toString('hex')}@bench.example` : undefined;
    const createdAt = new Date().toISOString();
    const evidence = {
      tenantId: tenant.tenantId,
      recordId: newTimeOrderedId(),
      noticeId: tenant.noticeId,
      noticeVersionNumber: 1,
      noticeTextHash: 'a'.repeat(64),
      languageShown: index % 5 === 0 ? 'HI' : 'EN',
      positionShown: 'api',
      dataPrincipalHash: email ? principalHash(email) : randomBytes(32).toString('hex'),
      externalId: null,
      consentGiven: { [purposeId]: true },
      createdAt,
      ipAddress: '198.18.0.1',
      userAgent: null,
    };
    const record: ConsentRecord = {
      ...evidence,
      proofVersion: 2,
      proofHash: proofHashOf(evidence),
      noticeTitle: 'Privacy notice',
      lineageId: tenant.noticeId,
      channel: 'DASHBOARD',
      decision: null,
      requiredPurposesDeclined: [],
      withdrawnPurposes: [],
      withdrawnAt: null,
      isWithdrawn: false,
      isPartiallyWithdrawn: false,
      withdrawalVersion: 0,
    };
    return { hash: evidence.dataPrincipalHash, item: recordPut(record, email ? sealContact(email) : undefined).Item! };
  });
  await putItems(principals.map((principal) => principal.item));
  return { mailable: Math.ceil(count * emailShare), hashes: principals.map((principal) => principal.hash) };
};

/** Works the breach queue as the worker Lambda's event source would, two messages at a time, until `done`. */
const workQueue = async (done: () => Promise<boolean>) => {
  const queueUrl = config.breachQueueUrl!;
  const consumer = async () => {
    for (let idle = 0; idle < 3 || !(await done()); ) {
      const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 0, VisibilityTimeout: 60 }));
      if (Messages.length === 0) {
        idle += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      idle = 0;
      await processIntimationMessage(JSON.parse(Messages[0]!.Body!) as IntimationMessage);
      await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: Messages[0]!.ReceiptHandle! }));
    }
  };
  await Promise.all([consumer(), consumer()]);
};

/**
 * The time and write units to intimate a breach's affected principals: every principal of one
 * tenant (scope ALL), most with a sealed email (mailed in English or Hindi), the rest handed to the
 * tenant in breach.principals pages; counts checked exact. Then the outbox's cost of sending the
 * mails, on a sample.
 */
export const measureBreachIntimation = async (tenant: BenchTenant, settings: Settings): Promise<BreachResult> => {
  const { principals, emailShare, mailSample } = settings.breach;
  const { mailable } = await seedPrincipals(tenant, principals, emailShare);
  const breach = await expectData<{ breachId: string }>(requireRoute('POST', '/api/v1/breaches'), {
    bearer: tenant.token,
    body: {
      title: 'Bench breach',
      awareAt: new Date(Date.now() - 3_600_000).toISOString(),
      nature: 'Order records were exposed.',
      extent: 'Every customer.',
      location: 'Order service',
      likelyImpact: 'Phishing.',
      dataCategories: ['email'],
      affected: { scope: 'ALL' },
    },
  });
  const params = { breachId: breach.breachId };
  const progressOf = () => expectData<{ intimation: { status: string; progress: { total: number; mailed: number; viaTenant: number; awaitingTenant: number; failed: number } } }>(requireRoute('GET', '/api/v1/breaches/:breachId'), { bearer: tenant.token, params });
  const words = { whatHappened: 'Order details were copied from our store.', consequences: 'Phishing mails may use your order details.', mitigation: 'The store was closed and keys rotated.', safetySteps: 'Do not follow links that ask for a password.' };
  const started = performance.now();
  const start = await measure(() =>
    expectData(requireRoute('POST', '/api/v1/breaches/:breachId/principal-intimation'), {
      bearer: tenant.token,
      params,
      body: { ...words, contact: 'dpo@bench.example', translations: { HI: { whatHappened: 'ऑर्डर का विवरण कॉपी किया गया', consequences: 'फ़िशिंग मेल', mitigation: 'कुंजियाँ बदली गईं', safetySteps: 'पासवर्ड वाले लिंक न खोलें' } } },
    }),
  );
  // Outside the measured work: the bench's own polling of the run.
  const isDone = async () => (await progressOf()).intimation.status === 'DONE';
  const steps = await measure(() => workQueue(() => measure(isDone).then(({ result }) => result)));
  const intimateMs = performance.now() - started;
  const { intimation } = await progressOf();
  if (intimation.progress.total !== principals || intimation.progress.mailed !== mailable || intimation.progress.viaTenant + intimation.progress.awaitingTenant !== principals - mailable || intimation.progress.failed !== 0) {
    throw new Error(`inexact intimation: ${JSON.stringify(intimation.progress)} for ${principals} principals, ${mailable} with an email`);
  }
  const work = combine([start.work, steps.work]);
  const mails = await measure(async () => {
    let sent = 0;
    while (sent < mailSample) {
      const handed = await drainOutbox('MAIL', Math.min(25, mailSample - sent));
      if (handed === 0) break;
      sent += handed;
    }
    return sent;
  });
  const result: BreachResult = {
    principals,
    mailed: mailable,
    viaTenant: principals - mailable,
    batchSize: config.breachBatchSize,
    intimateMs,
    principalsPerSecond: principals / (intimateMs / 1000),
    work,
    wruPerPrincipal: work.wru / principals,
    rruPerPrincipal: work.rru / principals,
    mailSample: mails.result,
    mailWork: mails.work,
    wruPerMail: mails.work.wru / Math.max(1, mails.result),
    mailsPerSecond: mails.result / (mails.ms / 1000),
  };
  printTable(
    `12. Breach intimation: ${principals.toLocaleString('en-US')} principals (${mailable.toLocaleString('en-US')} mailed, ${(principals - mailable).toLocaleString('en-US')} handed to the tenant), batches of ${result.batchSize}, two queue messages at a time`,
    ['measure', 'figure'],
    [
      ['time to intimate (POST to run DONE)', `${(intimateMs / 1000).toFixed(1)} s, ${Math.round(result.principalsPerSecond)} principals/s`],
      ['write units, all', describeUnits(work.wru, work.wruBy)],
      ['write units per principal', result.wruPerPrincipal],
      ['read units per principal', result.rruPerPrincipal],
      ['DynamoDB calls', describeCalls(work)],
      ['SQS calls', describeSqs(work)],
      [`sending the mails through the outbox (sample of ${result.mailSample})`, `${result.wruPerMail.toFixed(2)} WRU per mail, ${Math.round(result.mailsPerSecond)} mails/s (one drainer)`],
    ],
    [`Where the units go: ${describeAccesses(work)}`, `Counts checked exact: total ${principals}, mailed ${mailable}, handed to the tenant (delivered or awaiting its webhook) ${principals - mailable}, failed 0.`],
  );
  return result;
};
