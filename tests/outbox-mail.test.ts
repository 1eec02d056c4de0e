import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { named, writeTransaction } from '../shared/db/transact';
import { dispatchOutboxItem, type OutboxItem } from '../shared/events/drain';
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
});
