import { QueryCommand } from '../shared/db/commands';
import { afterEach, describe, expect, it } from 'vitest';
import { nowIso } from '../shared/clock';
import { completePendingWithdrawals } from '../shared/consent/withdrawal-apply';
import { db, tableName } from '../shared/db/client';
import { newTenant, useApi, type Call } from './support/api';
import { publishedNotice, sha256 } from './support/consent';
import { sequenced } from './support/workers';
import { failWrites } from './support/storage';

/**
 * A principal with more records than one DynamoDB transaction can hold (100 items, about 48
 * records in a single-transaction withdrawal) can still withdraw, by every route, and a crash
 * halfway through is finished later without counting anything twice.
 */
const { call } = useApi();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

const manyRecords = async (count: number) => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  const apiKey = await tenant.apiKey();
  // The tenant's server names the principal: a raw identifier needs a secret key, sent without a browser Origin.
  const serverKey = await tenant.apiKey('secret');
  const email = `many-${Math.random().toString(36).slice(2)}@example.com`;
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, () =>
      call('POST', '/api/v1/consent/sdk-record', {
        ip: '127.0.0.9',
        body: { apiKey: serverKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true }, identifier: email },
      }),
    );
    for (const response of await Promise.all(batch)) expect(response.status).toBe(201);
  }
  // Counted when the log sequences them; the withdrawals under test then move the counts.
  await sequenced(tenant.tenantId, count);
  return { tenant, ...notice, apiKey, email };
};

const withdrawPublicly = (setup: Awaited<ReturnType<typeof manyRecords>>) =>
  call('POST', '/api/v1/consent/withdraw-public', {
    headers: { origin: 'http://localhost' },
    body: { apiKey: setup.apiKey, email: setup.email, purposeIds: [] },
  });

/** What the store holds for the tenant: record states, counters and withdrawal events (test-only reads). */
const tenantState = async (call_: Call, token: string, tenantId: string) => {
  const analytics = (await call_('GET', '/api/v1/consent/analytics', { token })).body.data;
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :outbox)',
      ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':outbox': 'OUTBOX#' },
    }),
  );
  const withdrawnEvents = Items.filter((item) => item.event?.type === 'consent.withdrawn').map((item) => item.event.data.consentRecordId as string);
  return { analytics, withdrawnEvents };
};

describe('withdrawal of many records', () => {
  it('withdraws 150 records of one principal from the dashboard, with exact counters and one event per record', async () => {
    const setup = await manyRecords(150);
    const response = await call('POST', '/api/v1/consent/withdraw', {
      token: setup.tenant.token,
      body: { dataPrincipalIdentifier: setup.email, noticeId: setup.noticeId },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ withdrawnCount: 150, isFullWithdrawal: true });
    const state = await tenantState(call, setup.tenant.token, setup.tenant.tenantId);
    expect(state.analytics).toMatchObject({ totalConsents: 150, consentWithdrawn: 150, consentGiven: 0 });
    expect(state.withdrawnEvents).toHaveLength(150);
    expect(new Set(state.withdrawnEvents).size).toBe(150);
    const statuses = (await call('GET', `/api/v1/consent/status/${sha256(setup.email)}`, { token: setup.tenant.token })).body.data;
    expect(statuses.every((status: { isWithdrawn: boolean }) => status.isWithdrawn)).toBe(true);
  }, 90_000);

  it('withdraws 60 records through a single-use link and by public email', async () => {
    const setup = await manyRecords(60);
    const link = await call('POST', '/api/v1/consent/withdrawal-token', {
      token: setup.tenant.token,
      body: { dataPrincipalIdentifier: setup.email, noticeId: setup.noticeId },
    });
    const token = String(link.body.data.token);
    const partial = await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: { withdrawAll: false, purposeIds: [setup.optional] } });
    expect(partial.status).toBe(200);
    expect(partial.body.data.withdrawnCount).toBe(60);
    expect((await call('POST', `/api/v1/consent/portal/${token}/withdraw`, { body: {} })).status).toBe(409);
    const rest = await withdrawPublicly(setup);
    expect(rest.status).toBe(200);
    expect(rest.body.data.withdrawnCount).toBe(60);
    const state = await tenantState(call, setup.tenant.token, setup.tenant.tenantId);
    expect(state.analytics).toMatchObject({ totalConsents: 60, consentWithdrawn: 60 });
    expect(state.withdrawnEvents).toHaveLength(120);
  }, 90_000);

  it('finishes a withdrawal that crashed between chunks, once, on retry or by the completer', async () => {
    const setup = await manyRecords(100);
    // Phase one and the first chunk commit; the second chunk's transaction fails, as a crash would.
    let transactions = 0;
    restore = failWrites({ except: (command) => command !== 'TransactWriteItems' || ++transactions !== 3 }).restore;
    const crashed = await call('POST', '/api/v1/consent/withdraw', {
      token: setup.tenant.token,
      body: { dataPrincipalIdentifier: setup.email, noticeId: setup.noticeId },
    });
    expect(crashed.status).toBe(500);
    restore();
    restore = undefined;
    const halfway = await tenantState(call, setup.tenant.token, setup.tenant.tenantId);
    expect(halfway.analytics.consentWithdrawn).toBe(40);
    expect(halfway.withdrawnEvents).toHaveLength(40);
    // The completer (the stream trigger's job) finishes it; running it twice changes nothing more.
    expect(await completePendingWithdrawals({ tenantId: setup.tenant.tenantId, olderThanMs: 0, now: new Date(nowIso()) })).toBe(1);
    expect(await completePendingWithdrawals({ tenantId: setup.tenant.tenantId, olderThanMs: 0, now: new Date(nowIso()) })).toBe(0);
    const done = await tenantState(call, setup.tenant.token, setup.tenant.tenantId);
    expect(done.analytics).toMatchObject({ totalConsents: 100, consentWithdrawn: 100, consentGiven: 0 });
    expect(done.withdrawnEvents).toHaveLength(100);
    expect(new Set(done.withdrawnEvents).size).toBe(100);
    // Retrying the request finds nothing left to withdraw: 409, and no second withdrawal.
    const retry = await call('POST', '/api/v1/consent/withdraw', {
      token: setup.tenant.token,
      body: { dataPrincipalIdentifier: setup.email, noticeId: setup.noticeId },
    });
    expect(retry.status).toBe(409);
    expect((await tenantState(call, setup.tenant.token, setup.tenant.tenantId)).withdrawnEvents).toHaveLength(100);
  }, 90_000);

  it('a retried request finishes the half-applied withdrawal before anything else', async () => {
    const setup = await manyRecords(60);
    let transactions = 0;
    restore = failWrites({ except: (command) => command !== 'TransactWriteItems' || ++transactions !== 3 }).restore;
    expect(
      (await call('POST', '/api/v1/consent/withdraw', { token: setup.tenant.token, body: { dataPrincipalIdentifier: setup.email, noticeId: setup.noticeId } })).status,
    ).toBe(500);
    restore();
    restore = undefined;
    // A public withdrawal of the same tenant runs next: it first finishes the pending one.
    const next = await withdrawPublicly(setup);
    expect(next.status).toBe(200);
    expect(next.body.data.withdrawnCount).toBe(0);
    const state = await tenantState(call, setup.tenant.token, setup.tenant.tenantId);
    expect(state.analytics).toMatchObject({ totalConsents: 60, consentWithdrawn: 60 });
    expect(state.withdrawnEvents).toHaveLength(60);
  }, 90_000);
});
