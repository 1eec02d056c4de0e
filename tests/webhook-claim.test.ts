import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sqs } from '../infra/local/sqs';
import { webhookKeys } from '../shared/webhooks/keys';
import { processDeliveryMessage } from '../shared/webhooks/worker';
import { newTenant, useApi } from './support/api';
import { startReceiver } from './support/receiver';

/**
 * Two copies of one delivery message processed at the same moment (SQS delivers at least once;
 * a batch can hold both) send the webhook once: the first copy claims the attempt.
 */
const { call } = useApi();
const originalQueue = process.env.WEBHOOK_QUEUE_URL;
afterAll(() => {
  process.env.WEBHOOK_QUEUE_URL = originalQueue;
});

describe('webhook attempt claim', () => {
  it('sends once when the same message is processed twice at once', async () => {
    // A queue nobody consumes: this test runs the attempt itself, twice.
    process.env.WEBHOOK_QUEUE_URL = String((await sqs().send(new CreateQueueCommand({ QueueName: `claim-${randomUUID()}` }))).QueueUrl);
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 300 }));
    try {
      const tenant = await newTenant(call);
      const hook = await call('POST', '/api/v1/webhooks', {
        token: tenant.token,
        body: { label: 'Receiver', url: receiver.url, secret: 'whsec_test_secret_0123456789', events: ['consent.recorded'] },
      });
      const webhookId = hook.body.data.id as string;
      expect((await call('POST', `/api/v1/webhooks/${webhookId}/test`, { token: tenant.token })).status).toBe(200);
      const [delivery] = (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: tenant.token })).body.data;
      const message = { key: webhookKeys.delivery(webhookId, delivery.createdAt, delivery.id), attempt: 1, notBefore: 0 };

      await Promise.all([processDeliveryMessage(message), processDeliveryMessage(message)]);

      expect(receiver.received).toHaveLength(1);
      const [after] = (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: tenant.token })).body.data;
      expect(after).toMatchObject({ status: 'SUCCESS', attempts: 1 });
    } finally {
      await receiver.close();
    }
  });
});
