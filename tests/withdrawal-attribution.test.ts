import canonicalize from 'canonicalize';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { waitForLog } from './support/evidence';
import { mailsTo } from './support/mail';
import { startReceiver, waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * Under the spec's default (publicWithdrawal IMMEDIATE) anyone holding the page's publishable key
 * can withdraw any email's consent. The behaviour and the answer stay as the spec fixes them; the
 * evidence says what happened: an unverified claim of the email at the public endpoint, with the
 * request's origin and IP hash, in the withdrawal record (and so its log entry), the evidence pack,
 * the dashboard's views, the team's mail and the consent.withdrawn webhook.
 */
const { call } = useApi();
useTestWorkers();

beforeEach(() => {
  process.env.WITHDRAW_PUBLIC_MIN_MS = '0';
});
afterEach(() => {
  delete process.env.WITHDRAW_PUBLIC_MIN_MS;
});

const setup = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const email = uniqueEmail('principal');
  const recorded = await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true, [notice.optional]: true } });
  expect(recorded.status).toBe(201);
  return { tenant, notice, email, recordId: recorded.body.data.consentRecordId as string };
};

const keyIdOf = (apiKey: string) => {
  const hex = /^cms_(?:sk_)?([0-9a-f]{32})_/.exec(apiKey)![1]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

describe('a withdrawal by email at withdraw-public', () => {
  it('is an unverified claim of the email, with origin and IP hash: in the record, the log entry, the pack, the dashboard, the mail and the webhook', async () => {
    const { tenant, email, recordId } = await setup();
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const webhook = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Stop processing', url: receiver.url, secret: 'whsec_attribution_0123456789', events: ['consent.withdrawn'] } });
      expect(webhook.status).toBe(201);
      const apiKey = await tenant.apiKey();
      const ip = '203.0.113.90';
      const answer = await call('POST', '/api/v1/consent/withdraw-public', { ip, headers: { origin: 'https://shop.example' }, body: { apiKey, email } });
      // The spec's answer, unchanged.
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.data).sort()).toEqual(['confirmationRequired', 'isFullWithdrawal', 'purposesWithdrawn', 'tenant', 'withdrawalId', 'withdrawnAt', 'withdrawnCount']);
      const { withdrawalId } = answer.body.data;
      const claimed = { level: 'CLAIMED', method: 'PUBLIC_EMAIL_CLAIM', attributedBy: `key:${keyIdOf(apiKey)}`, origin: 'https://shop.example', ipHash: sha256(`ip:${ip}`) };

      // The record's view: the withdrawal that changed it, and how far it knows who withdrew.
      const proof = (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data;
      expect(proof.lastWithdrawal).toEqual({ withdrawalId, withdrawnAt: answer.body.data.withdrawnAt, method: 'PUBLIC_API', reason: null, reasonSha256: null, isFullWithdrawal: true, purposeIds: expect.any(Array), attribution: claimed });
      // The withdrawals screen's tasks.
      const [task] = (await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data;
      expect(task).toMatchObject({ withdrawalId, withdrawalMethod: 'PUBLIC_API', withdrawalAttribution: claimed });

      // The webhook the tenant's systems act on.
      const delivered = await waitFor(() => receiver.received.find((entry) => JSON.parse(entry.rawBody.toString()).type === 'consent.withdrawn'));
      expect(JSON.parse(delivered.rawBody.toString()).data).toMatchObject({ withdrawalId, consentRecordId: recordId, withdrawalMethod: 'PUBLIC_API', attribution: claimed });

      // The evidence pack: the attribution is part of what the withdrawal's hash (its log leaf) covers, and the actor is the key, not the principal.
      await waitForLog(tenant.tenantId, 2);
      const pack = (await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { dataPrincipalIdentifier: email } })).body.data.pack;
      expect(pack.withdrawals).toHaveLength(1);
      const [withdrawal] = pack.withdrawals;
      expect(withdrawal.evidence).toMatchObject({ kind: 'withdrawal', method: 'PUBLIC_API', actor: `key:${keyIdOf(apiKey)}`, attribution: claimed });
      expect(sha256(canonicalize(withdrawal.evidence)!)).toBe(withdrawal.hash);
      expect(withdrawal.log.status).toBe('INTEGRATED');
      expect(JSON.stringify(pack)).not.toContain(email);

      // The team's mail says so too.
      const dpoMail = (await mailsTo(tenant.adminEmail)).find((mail) => mail.body.text?.includes(withdrawalId));
      expect(dpoMail?.body.text).toContain('How it was made: Unverified. Someone sent this email address to the public withdrawal endpoint');
      expect(dpoMail?.body.text).toContain('https://shop.example');
    } finally {
      await receiver.close();
    }
  });

  it("from the tenant's server with a secret key is the server vouching: VERIFIED, SECRET_KEY, no origin", async () => {
    const { tenant, email, recordId } = await setup();
    const secret = await tenant.apiKey('secret');
    const answer = await call('POST', '/api/v1/consent/withdraw-public', { ip: '203.0.113.91', body: { apiKey: secret, email } });
    expect(answer.status).toBe(200);
    const proof = (await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data;
    expect(proof.lastWithdrawal.attribution).toEqual({ level: 'VERIFIED', method: 'SECRET_KEY', attributedBy: `key:${keyIdOf(secret)}`, origin: null, ipHash: sha256('ip:203.0.113.91') });
  });

  it('leaves every other withdrawal as it was: no attribution in its evidence, null in the event and the views', async () => {
    const { tenant, notice, email, recordId } = await setup();
    const answer = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId: notice.noticeId } });
    expect(answer.status).toBe(200);
    expect((await call('GET', `/api/v1/consent/records/${recordId}/proof`, { token: tenant.token })).body.data.lastWithdrawal).toMatchObject({ method: 'DASHBOARD', attribution: null });
    expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data[0]).toMatchObject({ withdrawalMethod: 'DASHBOARD', withdrawalAttribution: null });
    await waitForLog(tenant.tenantId, 2);
    const pack = (await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { dataPrincipalIdentifier: email } })).body.data.pack;
    expect(pack.withdrawals[0].evidence).not.toHaveProperty('attribution');
  });
});

describe('a change of the consent settings', () => {
  it('is logged in the evidence log (who, when, from, to), listed for the DPO, verified with the log, and a save that changes nothing logs nothing', async () => {
    const tenant = await newTenant(call);
    const dpoToken = await tenant.userToken('DPO');
    const save = (body: Record<string, unknown>, token = dpoToken) => call('PUT', '/api/v1/consent/settings', { token, body });
    const changes = async () => (await call('GET', '/api/v1/consent/settings/changes', { token: dpoToken })).body.data as { by: string; changes: Record<string, { from: unknown; to: unknown }>; hash: string; at: string }[];

    const saved = await save({ publicWithdrawal: 'CONFIRM_BY_EMAIL' });
    expect(saved.status).toBe(200);
    const dpo = saved.body.data.updatedBy as string;
    expect(await changes()).toEqual([{ documentId: expect.any(String), at: saved.body.data.updatedAt, by: dpo, revision: 1, changes: { publicWithdrawal: { from: 'IMMEDIATE', to: 'CONFIRM_BY_EMAIL' } }, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // The same value again: nothing changed, nothing logged.
    expect((await save({ publicWithdrawal: 'CONFIRM_BY_EMAIL' })).status).toBe(200);
    expect(await changes()).toHaveLength(1);
    // Back, with the other setting: one entry naming both, newest first.
    expect((await save({ publicWithdrawal: 'IMMEDIATE', requireVerifiedIdentity: true }, tenant.token)).status).toBe(200);
    const [latest, first] = await changes();
    expect(latest!.changes).toEqual({ publicWithdrawal: { from: 'CONFIRM_BY_EMAIL', to: 'IMMEDIATE' }, requireVerifiedIdentity: { from: false, to: true } });
    expect(latest!.by).not.toBe(dpo);
    expect(first!.changes).toEqual({ publicWithdrawal: { from: 'IMMEDIATE', to: 'CONFIRM_BY_EMAIL' } });

    // An audit read: not for ANALYST or VIEWER.
    expect((await call('GET', '/api/v1/consent/settings/changes', { token: await tenant.userToken('VIEWER') })).status).toBe(403);

    // Leaves of the tenant's log, verified like every record.
    await waitForLog(tenant.tenantId, 2);
    expect((await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token })).body.data).toMatchObject({ intact: true, treeSize: 2, problems: [] });
  });

  it('logs what each of two simultaneous saves replaced: the changes chain from one to the next and end at the value saved last', async () => {
    const tenant = await newTenant(call);
    const saves = await Promise.all(
      ['CONFIRM_BY_EMAIL', 'IMMEDIATE', 'CONFIRM_BY_EMAIL', 'IMMEDIATE'].map((publicWithdrawal) => call('PUT', '/api/v1/consent/settings', { token: tenant.token, body: { publicWithdrawal } })),
    );
    for (const response of saves) expect([200, 409]).toContain(response.status);
    const logged = ((await call('GET', '/api/v1/consent/settings/changes', { token: tenant.token })).body.data as { changes: { publicWithdrawal: { from: string; to: string } } }[]).reverse();
    expect(logged.length).toBeGreaterThanOrEqual(1);
    let value = 'IMMEDIATE';
    for (const { changes } of logged) {
      expect(changes.publicWithdrawal.from).toBe(value);
      value = changes.publicWithdrawal.to;
    }
    expect((await call('GET', '/api/v1/consent/settings', { token: tenant.token })).body.data.publicWithdrawal).toBe(value);
  });
});
