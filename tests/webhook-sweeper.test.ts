import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestWorkers } from './support/workers';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { sqs } from '../infra/local/sqs';
import { newTenant, useApi } from './support/api';
import { startReceiver, waitFor } from './support/receiver';

/**
 * A retry pending when the local stack stops is lost with the in-memory SQS emulator. After a
 * restart (new empty queue), the sweeper finds the overdue delivery through its due index and
 * queues it again, and it ends SUCCESS, sent exactly once more.
 */
const { call } = useApi();
const originalQueue = process.env.WEBHOOK_QUEUE_URL;
afterAll(() => {
  process.env.WEBHOOK_QUEUE_URL = originalQueue;
  delete process.env.WEBHOOK_RETRY_BASE_MS;
  resetClock();
});

/** A queue of this test's own, so no other test file's worker takes its messages. */
const freshQueue = async () => String((await sqs().send(new CreateQueueCommand({ QueueName: `sweeper-${randomUUID()}` }))).QueueUrl);

describe('webhook sweeper', () => {
  it('re-queues a retry lost in a restart, and the delivery ends SUCCESS with one more send', async () => {
    const receiver = await startReceiver((_, index) => ({ status: index === 0 ? 500 : 200 }));
    const tenant = await newTenant(call);
    // The retry waits a minute, so it is still queued when the stack "stops".
    process.env.WEBHOOK_RETRY_BASE_MS = '60000';
    process.env.WEBHOOK_QUEUE_URL = await freshQueue();
    let workers = startTestWorkers();
    try {
      const hook = await call('POST', '/api/v1/webhooks', {
        token: tenant.token,
        body: { label: 'Receiver', url: receiver.url, secret: 'whsec_test_secret_0123456789', events: ['consent.recorded'] },
      });
      expect((await call('POST', `/api/v1/webhooks/${hook.body.data.id}/test`, { token: tenant.token })).status).toBe(200);
      const deliveries = () => call('GET', `/api/v1/webhooks/${hook.body.data.id}/deliveries`, { token: tenant.token });
      await waitFor(async () => ((await deliveries()).body.data[0]?.status === 'RETRYING' ? true : undefined));
      expect(receiver.received).toHaveLength(1);

      // Stop, and start again on an empty queue: the queued retry is gone.
      await workers.stop();
      process.env.WEBHOOK_QUEUE_URL = await freshQueue();
      // Four minutes on: the retry (due a minute after the first attempt) is overdue by more than the sweeper's margin.
      setClock(offsetClock(4 * 60_000));
      workers = startTestWorkers();
      // Well before the sweeper loop's second round (30 s): the first sweep, at start, finds it.
      const done = await waitFor(async () => {
        const [delivery] = (await deliveries()).body.data;
        return delivery?.status === 'SUCCESS' ? delivery : undefined;
      }, 15_000);
      expect(done).toMatchObject({ attempts: 2, success: true });
      // A later sweep finds nothing: the delivery left the due index when it closed.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(2);
    } finally {
      await workers.stop();
      await receiver.close();
    }
  }, 60_000);
});
