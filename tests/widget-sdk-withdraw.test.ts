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
  const { consentRecordId, withdrawalKey } = recorded.body.data as { consentRecordId: string; withdrawalKey: string };
  expect(withdrawalKey).toMatch(/^[\w-]{43}$/);
  return { tenant, apiKey, notice, record: { consentRecordId, withdrawalKey }, proofHash: recorded.body.data.proofHash as string };
};

const sdkWithdraw = (body: Record<string, unknown>) => call('POST', '/api/v1/consent/sdk-withdraw', { body });

describe('POST /api/v1/consent/sdk-withdraw (widget withdrawal, extension)', () => {
  it('answers a wrong withdrawal key exactly like an unknown record, and withdraws nothing', async () => {
    const { apiKey, record, tenant } = await widgetConsent();
    const wrongKey = await sdkWithdraw({ apiKey, consentRecordId: record.consentRecordId, withdrawalKey: 'a'.repeat(43) });
    const unknown = await sdkWithdraw({ apiKey, consentRecordId: '0190a8f4-0000-7000-8000-000000000000', withdrawalKey: record.withdrawalKey });
    for (const response of [wrongKey, unknown]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect(wrongKey.body.error.message).toBe(unknown.body.error.message);
    expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toEqual([]);
  });

  it('no longer lets a VIEWER who reads the proof hash in the records list withdraw, and shows the withdrawal key nowhere else', async () => {
    const { apiKey, record, tenant, proofHash } = await widgetConsent();
    const viewer = await tenant.userToken('VIEWER');
    const reads = [
      await call('GET', '/api/v1/consent/records', { token: viewer }),
      await call('GET', `/api/v1/consent/records/${record.consentRecordId}/proof`, { token: viewer }),
      await call('GET', `/api/v1/consent/status/${(await call('GET', '/api/v1/consent/records', { token: viewer })).body.data.items[0].dataPrincipalHash}`, { token: viewer }),
    ];
    expect(reads[0]!.body.data.items[0].proofHash).toBe(proofHash);
    const { createHash } = await import('node:crypto');
    const keyHash = createHash('sha256').update(record.withdrawalKey).digest();
    for (const read of reads) {
      const text = JSON.stringify(read.body);
      expect(text).not.toContain(record.withdrawalKey);
      expect(text).not.toContain(keyHash.toString('hex'));
      expect(text).not.toContain(keyHash.toString('base64'));
    }
    // What the VIEWER has: the record id and its proof hash. The old credential is no field any more.
    const withProof = await sdkWithdraw({ apiKey, consentRecordId: record.consentRecordId, proofHash });
    expect(withProof.status).toBe(400);
    expect(withProof.body.error.fields).toHaveProperty('withdrawalKey');
    const guessed = await sdkWithdraw({ apiKey, consentRecordId: record.consentRecordId, withdrawalKey: proofHash.slice(0, 43) });
    expect(guessed.status).toBe(404);
    expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toEqual([]);
  });

  it('answers 404 for a record without a withdrawal key (made before them, or in the dashboard)', async () => {
    const { apiKey, tenant, notice } = await widgetConsent();
    const recorded = await call('POST', '/api/v1/consent/record', {
      token: tenant.token,
      body: { noticeId: notice.noticeId, dataPrincipalIdentifier: 'desk@example.in', consentGiven: { [notice.required]: true } },
    });
    const response = await sdkWithdraw({ apiKey, consentRecordId: recorded.body.data.consentRecordId, withdrawalKey: 'A'.repeat(43) });
    expect(response.status).toBe(404);
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
