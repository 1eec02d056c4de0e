import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand, UpdateCommand } from '../shared/db/commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processIntimationMessage, type IntimationMessage } from '../shared/breaches/worker';
import { breachKeys } from '../shared/breaches/keys';
import { db, tableName } from '../shared/db/client';
import { documentsOf } from '../shared/evidence/documents';
import { sqs } from '../infra/local/sqs';
import { newTenant, useApi } from './support/api';
import { breachBody, createBreach, getBreach, intimate, intimationBody, outboxEvents } from './support/breaches';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { deliveredMails } from './support/mail';
import { waitFor } from './support/receiver';
import { failWrites } from './support/storage';
import { startTestWorkers } from './support/workers';

/**
 * The intimation at scale, in miniature: batches of 7 (BREACH_INTIMATION_BATCH_SIZE) over a few
 * dozen principals give the same exactness the 10,000-principal bench run shows (bench/sections/
 * breach.ts): every principal counted once, mailed once or handed to the tenant once, whatever
 * the page boundaries, replays, concurrent duplicates, a crash mid-batch, a poison contact or a
 * lost message do.
 */
const { call } = useApi();
const batchSize = 7;

beforeAll(() => {
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '100000';
  process.env.RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE = '100000';
  process.env.BREACH_INTIMATION_BATCH_SIZE = String(batchSize);
});
afterAll(() => {
  delete process.env.BREACH_INTIMATION_BATCH_SIZE;
  delete process.env.BREACH_INTIMATION_STALL_SECONDS;
});

const emailOf = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@example.in`;

/** A tenant with `mailable` principals identified by email (the first `twice` with two records each) and `hashOnly` known by hash only. */
const populated = async (mailable: number, twice: number, hashOnly: number) => {
  const tenant = await newTenant(call);
  const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
  const apiKey = await tenant.apiKey();
  const emails = Array.from({ length: mailable }, (_, index) => emailOf(`p${index}`));
  const hashes = Array.from({ length: hashOnly }, (_, index) => sha256(`hash-only-${index}-${Math.random()}`));
  const consent = (email: string) => recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [required]: true, [optional]: true } });
  for (const email of emails) expect((await consent(email)).status).toBe(201);
  for (const hash of hashes) {
    const sdk = await call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true }, identifierHash: hash }, headers: { origin: 'http://localhost' } });
    expect(sdk.status).toBe(201);
  }
  // Second records land on later pages than the first ones: the same principal is a candidate twice.
  for (const email of emails.slice(0, twice)) expect((await consent(email)).status).toBe(201);
  return { tenant, emails, hashes, consent };
};

/** The tenant's queued mails (outbox items), by recipient: sent or not, each is one mail. */
const queuedMails = async (tenantId: string) => {
  const { Items = [] } = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':prefix': 'OUTBOX#mail_' }, ConsistentRead: true }),
  );
  const byRecipient = new Map<string, number>();
  for (const item of Items) byRecipient.set((item.mail as { to: string }).to, (byRecipient.get((item.mail as { to: string }).to) ?? 0) + 1);
  return byRecipient;
};

const handedHashes = async (tenantId: string, breachId: string) =>
  (await outboxEvents(tenantId, 'breach.principals')).filter((event) => event.data.breachId === breachId).flatMap((event) => event.data.principalHashes as string[]);

/**
 * Works the queue by hand, as a worker would, but handing every message to two workers at once
 * (SQS delivers at least once): until the queue stays empty.
 */
const workQueueTwice = async () => {
  const queueUrl = process.env.BREACH_QUEUE_URL!;
  for (let idle = 0; idle < 2; ) {
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    idle = Messages.length === 0 ? idle + 1 : 0;
    for (const message of Messages) {
      const parsed = JSON.parse(message.Body!) as IntimationMessage;
      await Promise.all([processIntimationMessage(parsed), processIntimationMessage(parsed)]);
      await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    }
  }
};

/** Takes every message off the queue without working it: as if the queue lost them. */
const loseMessages = async () => {
  const queueUrl = process.env.BREACH_QUEUE_URL!;
  let lost = 0;
  for (let idle = 0; idle < 2; ) {
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    idle = Messages.length === 0 ? idle + 1 : 0;
    for (const message of Messages) await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    lost += Messages.length;
  }
  return lost;
};

describe('breach intimation in batches', () => {
  it('intimates every principal exactly once across pages of 7, with exact counts, pages and batch documents', async () => {
    const workers = startTestWorkers();
    try {
      const { tenant, emails, hashes, consent } = await populated(12, 4, 6);
      const breach = await createBreach(call, tenant.token, breachBody());
      const done = await intimate(call, tenant.token, breach.breachId);
      expect(done.intimation.progress).toEqual({ total: 18, mailed: 12, viaTenant: 0, awaitingTenant: 6, failed: 0 });
      expect(done.affectedCount).toBe(18);
      const mails = await queuedMails(tenant.tenantId);
      expect([...mails.keys()].sort()).toEqual([...emails].sort());
      expect([...mails.values()].every((count) => count === 1)).toBe(true);
      const delivered = (await deliveredMails()).filter((mail) => emails.includes(mail.destination.to[0]!));
      expect(delivered).toHaveLength(12);

      const pages = (await outboxEvents(tenant.tenantId, 'breach.principals')).map((event) => event.data.principalHashes as string[]);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(batchSize);
      expect(pages.flat().sort()).toEqual([...hashes].sort());

      // 22 records in pages of 7: 4 batches, each one logged document whose counts add up to the totals.
      const batches = await documentsOf(tenant.tenantId, breachKeys.batchSubject(breach.breachId));
      expect(batches).toHaveLength(4);
      const counts = batches.map((document) => (JSON.parse(document.canonical) as { content: { counts: Record<string, number> } }).content.counts);
      expect(counts.reduce((sum, count) => sum + count.total!, 0)).toBe(18);
      expect(counts.reduce((sum, count) => sum + count.mailed!, 0)).toBe(12);
      // No email in any logged batch: hashes only.
      for (const document of batches) expect(document.canonical).not.toContain('@');

      // A second call, after two more principals consented: only they are reached.
      const late = [emailOf('late-a'), emailOf('late-b')];
      for (const email of late) expect((await consent(email)).status).toBe(201);
      const again = await intimate(call, tenant.token, breach.breachId);
      expect(again.intimation).toMatchObject({ runs: 2, progress: { total: 20, mailed: 14, viaTenant: 0, awaitingTenant: 6, failed: 0 } });
      const after = await queuedMails(tenant.tenantId);
      expect([...after.values()].every((count) => count === 1)).toBe(true);
      expect([...after.keys()].sort()).toEqual([...emails, ...late].sort());
    } finally {
      await workers.stop();
    }
  });

  it('changes nothing when every message is worked twice at once, a batch crashes before completing, or a contact is not the principal\'s', async () => {
    const { tenant, emails, hashes } = await populated(10, 2, 4);
    // Bob's record carries Asha's sealed email (copied by hand): it decrypts, but not to Bob's own address.
    const [asha, bob] = emails;
    const items = async (email: string) =>
      (await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': `PRINCIPAL#${tenant.tenantId}#${sha256(email)}` } }))).Items!;
    const sealed = (await items(asha!))[0]!.ce as string;
    expect(sealed).toMatch(/^v1:/);
    expect(JSON.stringify(await items(asha!))).not.toContain(asha);
    for (const item of await items(bob!)) {
      await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, UpdateExpression: 'SET ce = :ce', ExpressionAttributeValues: { ':ce': sealed } }));
    }

    const breach = await createBreach(call, tenant.token, breachBody());
    const started = await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: intimationBody() });
    expect(started.status).toBe(202);
    // While it makes progress, a second call is refused.
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: intimationBody() })).status).toBe(409);

    // The first page is resolved, and its batch crashes after claiming and queueing its mails, before its completion commits.
    const ids = { tenantId: tenant.tenantId, breachId: breach.breachId, runId: started.body.data.runId as string };
    await processIntimationMessage({ kind: 'resolve', ...ids, page: 0, cursor: null, batchesBefore: 0 });
    const batch: IntimationMessage = { kind: 'batch', ...ids, page: 0 };
    const storage = failWrites({ except: (command) => !command.startsWith('TransactWrite') });
    try {
      await expect(processIntimationMessage(batch)).rejects.toThrow();
    } finally {
      storage.restore();
    }
    expect((await getBreach(call, tenant.token, breach.breachId)).intimation.progress.total).toBe(0);
    // The batch again, twice at once (a redelivery racing a duplicate), then every queued message worked twice at once.
    await Promise.all([processIntimationMessage(batch), processIntimationMessage(batch)]);
    await workQueueTwice();

    const done = await getBreach(call, tenant.token, breach.breachId);
    expect(done.intimation.status).toBe('DONE');
    expect(done.intimation.progress).toEqual({ total: 14, mailed: 9, viaTenant: 0, awaitingTenant: 4, failed: 1 });
    const mails = await queuedMails(tenant.tenantId);
    expect([...mails.values()].every((count) => count === 1)).toBe(true);
    expect(mails.get(asha!)).toBe(1);
    expect([...mails.keys()].sort()).toEqual(emails.filter((email) => email !== bob).sort());
    expect((await handedHashes(tenant.tenantId, breach.breachId)).sort()).toEqual([...hashes].sort());
    // Replaying a finished run's messages does nothing either.
    await processIntimationMessage({ kind: 'resolve', ...ids, page: 0, cursor: null, batchesBefore: 0 });
    await processIntimationMessage(batch);
    expect((await getBreach(call, tenant.token, breach.breachId)).intimation.progress).toEqual(done.intimation.progress);
    const verified = await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token });
    expect(verified.status).toBe(200);
  });

  it('resumes a run whose messages were lost, once it has made no progress for BREACH_INTIMATION_STALL_SECONDS', async () => {
    const { tenant, emails, hashes } = await populated(5, 0, 3);
    const breach = await createBreach(call, tenant.token, breachBody({ affected: { scope: 'PRINCIPALS', principalHashes: [...emails.map((email) => sha256(email)), ...hashes] } }));
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: intimationBody() })).status).toBe(202);
    expect(await loseMessages()).toBeGreaterThan(0);
    expect((await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: intimationBody() })).status).toBe(409);
    process.env.BREACH_INTIMATION_STALL_SECONDS = '0';
    const resumed = await call('POST', `/api/v1/breaches/${breach.breachId}/principal-intimation`, { token: tenant.token, body: intimationBody({ consequences: 'Other words are not used: the run keeps its own.' }) });
    delete process.env.BREACH_INTIMATION_STALL_SECONDS;
    expect(resumed.status).toBe(202);
    expect(resumed.body.data).toMatchObject({ resumed: true, status: 'RUNNING' });
    const workers = startTestWorkers();
    try {
      const done = await waitFor(async () => {
        const current = await getBreach(call, tenant.token, breach.breachId);
        return current.intimation.status === 'DONE' ? current : undefined;
      }, 30_000);
      expect(done.intimation).toMatchObject({ runs: 1, progress: { total: 8, mailed: 5, viaTenant: 0, awaitingTenant: 3, failed: 0 } });
      const mails = await queuedMails(tenant.tenantId);
      expect([...mails.values()]).toEqual([1, 1, 1, 1, 1]);
    } finally {
      await workers.stop();
    }
  });
});
