import { describe, expect, it } from 'vitest';
import { useTestWorkers } from './support/workers';
import { newTenant, useApi } from './support/api';
import { publishedNotice } from './support/consent';
import { startReceiver, waitFor } from './support/receiver';

const { call } = useApi();
useTestWorkers();

/** A tenant, its key, a published notice with one required and one optional purpose, and a widget consent to both. */
const widgetConsent = async () => {
  const tenant = await newTenant(call);
  const apiKey = await tenant.apiKey();
  const notice = await publishedNotice(call, tenant.token);
  const recorded = await call('POST', '/api/v1/consent/sdk-record', {
    body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true } },
  });
  expect(recorded.status).toBe(201);
  const { consentRecordId, proofHash } = recorded.body.data as { consentRecordId: string; proofHash: string };
  return { tenant, apiKey, notice, record: { consentRecordId, proofHash } };
};

const sdkWithdraw = (body: Record<string, unknown>) => call('POST', '/api/v1/consent/sdk-withdraw', { body });

describe('POST /api/v1/consent/sdk-withdraw (widget withdrawal, extension)', () => {
  it('answers a wrong proof exactly like an unknown record, and withdraws nothing', async () => {
    const { apiKey, record, tenant } = await widgetConsent();
    const wrongProof = await sdkWithdraw({ apiKey, consentRecordId: record.consentRecordId, proofHash: 'a'.repeat(64) });
    const unknown = await sdkWithdraw({ apiKey, consentRecordId: '0190a8f4-0000-7000-8000-000000000000', proofHash: record.proofHash });
    for (const response of [wrongProof, unknown]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect(wrongProof.body.error.message).toBe(unknown.body.error.message);
    expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toEqual([]);
  });

  it('withdraws one purpose, then the rest: WithdrawalRecord, 7-day task and consent.withdrawn with method WIDGET', async () => {
    const { apiKey, record, tenant, notice } = await widgetConsent();
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const hook = await call('POST', '/api/v1/webhooks', {
        token: tenant.token,
        body: { label: 'Receiver', url: receiver.url, secret: 'whsec_test_secret_0123456789', events: ['consent.withdrawn'] },
      });
      expect(hook.status).toBe(201);
      const partial = await sdkWithdraw({ apiKey, ...record, purposeIds: [notice.optional], reason: 'No more offers' });
      expect(partial.status).toBe(200);
      expect(partial.body.data).toMatchObject({ withdrawnCount: 1, isFullWithdrawal: false, purposesWithdrawn: [notice.optional] });
      const dueInDays = (Date.parse(partial.body.data.complianceTask.dueAt) - Date.parse(partial.body.data.withdrawnAt)) / 86_400_000;
      expect(dueInDays).toBe(7);

      const rest = await sdkWithdraw({ apiKey, ...record });
      expect(rest.status).toBe(200);
      expect(rest.body.data).toMatchObject({ isFullWithdrawal: true, purposesWithdrawn: [notice.required] });
      expect((await sdkWithdraw({ apiKey, ...record })).status).toBe(409);

      const tasks = (await call('GET', '/api/v1/compliance-tasks?status=OPEN', { token: tenant.token })).body.data;
      expect(tasks.map((task: { withdrawalId: string }) => task.withdrawalId).sort()).toEqual([partial.body.data.withdrawalId, rest.body.data.withdrawalId].sort());

      const events = await waitFor(() => (receiver.received.length >= 2 ? receiver.received.map((entry) => JSON.parse(entry.rawBody.toString())) : undefined));
      expect(events.map((event) => event.data.withdrawalMethod)).toEqual(['WIDGET', 'WIDGET']);
      expect(events[0].data).toMatchObject({ consentRecordId: record.consentRecordId, withdrawalReason: 'No more offers', purposeIds: [notice.optional] });
    } finally {
      await receiver.close();
    }
  });

  it('refuses purposes the record does not have', async () => {
    const { apiKey, record } = await widgetConsent();
    const response = await sdkWithdraw({ apiKey, ...record, purposeIds: ['0190a8f4-0000-7000-8000-000000000001'] });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toHaveProperty('purposeIds');
  });
});
