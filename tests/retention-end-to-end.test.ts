import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../shared/webhooks/signature';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { recordConsent, sha256 } from './support/consent';
import { createNotice, createPurpose, publish } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * Retention end to end, on the real clock: a purpose kept one minute from consent, no notice. The
 * local workers' own retention sweep (a loop every few seconds, as `npm start` runs it) lets her
 * consent lapse: her record reads EXPIRED, consent-status answers no consent, and a signed
 * retention.erasure_due page names her hash at a loopback receiver. Nothing here calls the sweep.
 */
const { call } = useApi();
useTestWorkers();

const hookSecret = 'retention-e2e-secret-0123456789';
/** The period (PT1M) and two of the slowest sweep loops a loaded machine makes of the workers' few seconds, with room. */
const lapseDeadlineMs = 140_000;

describe('retention end to end', () => {
  it("lets a principal's consent lapse a minute after it was given, through the local workers' sweep", { timeout: 200_000 }, async () => {
    const tenant = await newTenant(call);
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      expect((await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'retention', url: receiver.url, secret: hookSecret, events: ['retention.erasure_due'] } })).status).toBe(201);
      const purpose = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'PT1M', from: 'CONSENT' } });
      const noticeId = await createNotice(call, tenant.token, [purpose]);
      expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
      const email = uniqueEmail('lapse');
      const hash = sha256(email);
      const recorded = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [purpose]: true } });
      expect(recorded.status).toBe(201);
      const givenAt = Date.now();
      const listed = async () => (await call('GET', `/api/v1/consent/records?search=${encodeURIComponent(email)}`, { token: tenant.token })).body.data.items[0];
      const status = async () => (await call('GET', `/api/v1/consent/status/${hash}`, { token: tenant.token })).body.data[0];
      expect((await status()).consentGiven).toEqual({ [purpose]: true });

      const expired = await waitFor(async () => {
        const record = await listed();
        if (record?.consentState === 'EXPIRED') return record;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return undefined;
      }, lapseDeadlineMs);
      // Not before her minute was up.
      expect(Date.parse(expired.expiredAt)).toBeGreaterThanOrEqual(givenAt - 5_000 + 60_000);
      expect(expired.expiryReason).toContain('RETENTION_PERIOD_ENDED');
      expect(await status()).toMatchObject({ consentState: 'EXPIRED', consentGiven: { [purpose]: false } });

      const delivery = await waitFor(() => receiver.received.find((entry) => JSON.parse(entry.rawBody.toString('utf8')).type === 'retention.erasure_due'), 30_000);
      expect(verifyWebhookSignature(delivery.rawBody, delivery.headers['x-service-signature'] as string, hookSecret)).toBe(true);
      expect(JSON.parse(delivery.rawBody.toString('utf8')).data).toMatchObject({ page: 1, pages: 1, purposeIds: [purpose], principalHashes: [hash] });
    } finally {
      await receiver.close();
    }
  });
});
