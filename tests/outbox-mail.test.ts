import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { named, writeTransaction } from '../shared/db/transact';
import { dispatchOutboxItem, drainOutbox, type OutboxItem } from '../shared/events/drain';
import { mailPut } from '../shared/mail/outbox';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { deliveredMails, mailsTo } from './support/mail';

const { call } = useApi();

/**
 * A pending mail handed on by two drainers at once (the stream retrying, or several local loops)
 * arrives once: the first takes its lease, the other sends nothing; a drainer that comes after it
 * was handed on sends nothing either.
 */
describe('outbox mail', () => {
  it('is sent once when two drainers hand it on at the same moment, and not again later', async () => {
    const to = `outbox-${randomUUID()}@example.com`;
    const put = mailPut(randomUUID(), { to, subject: 'Once', text: 'Only once' });
    await writeTransaction([named('mail', put)]);
    const item = put.Put!.Item as unknown as OutboxItem;

    await Promise.all([dispatchOutboxItem(item), dispatchOutboxItem(item)]);
    await dispatchOutboxItem(item);

    expect(await mailsTo(to)).toHaveLength(1);
  });

  it("is not held up by another tenant's mails that keep failing: a failed item goes behind every fresh one", async () => {
    // Whatever other files left pending goes first, so the drain below sees this test's items.
    while ((await drainOutbox('MAIL')) > 0);
    const poisoned = randomUUID();
    const healthy = randomUUID();
    // An empty subject and body: SES refuses the mail every time.
    await writeTransaction(Array.from({ length: 30 }, (_, index) => named(`poison ${index}`, mailPut(poisoned, { to: 'p@example.com', subject: '', text: '' }))));
    const to = `outbox-${randomUUID()}@example.com`;
    await writeTransaction([named('mail', mailPut(healthy, { to, subject: 'Still sent', text: 'Another tenant failed' }))]);
    const ours = (item: OutboxItem) => item.PK === `TENANT#${poisoned}` || item.PK === `TENANT#${healthy}`;
    for (let round = 0; round < 3; round += 1) await drainOutbox('MAIL', 25, ours);
    expect(await mailsTo(to)).toHaveLength(1);
  });
});

/**
 * A tenant's words reach mail headers (the subject of a principal's mail is the tenant's word, with
 * its name in it). A line break there must never start a header of its own: folded to a space
 * wherever a mail is queued or sent, whoever wrote the words.
 */
describe('mail headers from words', () => {
  it("folds a line break in a tenant's subject word: the mail arrives at the SES emulator with a one-line subject and no extra recipient", async () => {
    const tenant = await newTenant(call);
    const notice = await publishedNotice(call, tenant.token);
    // New lines are allowed in words (mails have paragraphs); a line separator is no control character either.
    const injected = '{tenant}: withdrawn\nBcc: collector@example.com\u2028X-Extra: 1';
    const saved = await call('PUT', '/api/v1/words/languages/en', { token: tenant.token, body: { labels: { 'mail.withdrawal.confirmedSubject': injected } } });
    expect(saved.status).toBe(200);
    const email = uniqueEmail('folded');
    expect((await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } })).status).toBe(201);
    expect((await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId: notice.noticeId } })).status).toBe(200);

    const [mail] = await mailsTo(email);
    expect(mail?.subject).toMatch(/^Tenant [0-9a-f]{8}: withdrawn Bcc: collector@example\.com X-Extra: 1$/);
    expect(mail?.destination.to).toEqual([email]);
    expect((await deliveredMails()).filter((delivered) => JSON.stringify(delivered.destination).includes('collector@example.com'))).toEqual([]);
  });

  it('folds a line break in a subject queued as it was (before the fix, or by any caller), and refuses an address with one', async () => {
    const to = `outbox-${randomUUID()}@example.com`;
    const put = mailPut(randomUUID(), { to, subject: 'First line\r\nBcc: collector@example.com', text: 'Body' });
    // As a mail queued before folding existed would be stored.
    (put.Put!.Item as { mail: { subject: string } }).mail.subject = 'First line\r\nBcc: collector@example.com';
    await writeTransaction([named('mail', put)]);
    await dispatchOutboxItem(put.Put!.Item as unknown as OutboxItem);
    expect((await mailsTo(to)).map((mail) => mail.subject)).toEqual(['First line Bcc: collector@example.com']);
    expect(() => mailPut(randomUUID(), { to: `${to}\r\nBcc: collector@example.com`, subject: 'x', text: 'x' })).toThrow(/address/);
  });
});
