import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { named, writeTransaction } from '../shared/db/transact';
import { dispatchOutboxItem, drainOutbox, type OutboxItem } from '../shared/events/drain';
import { mailPut } from '../shared/mail/outbox';
import { mailsTo } from './support/mail';

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
