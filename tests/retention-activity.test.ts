import { describe, expect, it } from 'vitest';
import { fixedClock, offsetClock, resetClock, setClock } from '../shared/clock';
import { consentKeys } from '../shared/consent/keys';
import { getSettingsItem } from '../shared/consent/settings-store';
import { UpdateCommand } from '../shared/db/commands';
import { db, tableName } from '../shared/db/client';
import { lastActivityOf } from '../shared/retention/activity';
import { activityConsumer } from '../shared/retention/activity-consumer';
import type { StreamChange } from '../shared/stream/change';
import { tenantPartition } from '../shared/tenants/keys';
import { newTenant, uniqueEmail, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { publishedNotice, recordConsent, sha256 } from './support/consent';
import { createPurpose } from './support/notices';
import { waitFor } from './support/receiver';
import { confirmedRequest, mailedLink } from './support/rights';
import { callsOf, failWrites } from './support/storage';
import { useTestWorkers } from './support/workers';

/**
 * A principal's last activity (rule 8(1)): what the tenant's server reports, and what the service
 * sees itself (a consent, a withdrawal), coalesced to one write per principal per day.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const report = (apiKey: string, activities: { identifierHash: string; at: string }[]) => call('POST', '/api/v1/principals/activity', { body: { apiKey, activities } });

/** A retention in force: the Third Schedule (a decision of a tenant with none is not activity: nothing of it can fall due). */
const inForce = async (token: string) => expect((await call('PUT', '/api/v1/retention/settings', { token, body: { thirdScheduleClass: 'ECOMMERCE' } })).status).toBe(200);

describe('principal activity', () => {
  it('takes a secret key only, up to 1,000 items, none in the future, all or nothing', async () => {
    const tenant = await newTenant(call);
    const hash = sha256(`a-${tenant.tenantId}`);
    expect((await report(await tenant.apiKey('publishable'), [{ identifierHash: hash, at: new Date().toISOString() }])).status).toBe(403);
    const secret = await tenant.apiKey('secret');
    const future = await report(secret, [
      { identifierHash: hash, at: new Date(Date.now() - 60_000).toISOString() },
      { identifierHash: sha256('b'), at: new Date(Date.now() + 3_600_000).toISOString() },
    ]);
    expect(future.status).toBe(400);
    expect(future.body.error.fields).toHaveProperty(['activities[1].at']);
    expect(await lastActivityOf(tenant.tenantId, hash)).toBeNull();
    const many = Array.from({ length: 1001 }, (_, index) => ({ identifierHash: sha256(String(index)), at: new Date().toISOString() }));
    expect((await report(secret, many)).status).toBe(400);
    expect((await report(secret, [{ identifierHash: 'ABC', at: new Date().toISOString() }])).status).toBe(400);
    expect((await report(secret, [])).status).toBe(400);
  });

  it('coalesces a principal\'s activity to one write a day, never going back', async () => {
    const tenant = await newTenant(call);
    const secret = await tenant.apiKey('secret');
    const [asha, ravi] = [sha256(`asha-${tenant.tenantId}`), sha256(`ravi-${tenant.tenantId}`)];
    setClock(fixedClock('2026-03-10T12:00:00.000Z'));
    const first = await report(secret, [
      { identifierHash: asha, at: '2026-03-10T08:00:00.000Z' },
      { identifierHash: asha, at: '2026-03-10T09:00:00.000Z' },
      { identifierHash: ravi, at: '2026-03-09T23:00:00+05:30' },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ accepted: 3, principals: 2, recorded: 2 });
    expect(await lastActivityOf(tenant.tenantId, asha)).toBe('2026-03-10T09:00:00.000Z');
    expect(await lastActivityOf(tenant.tenantId, ravi)).toBe('2026-03-09T17:30:00.000Z');
    // Later the same day: coalesced. An earlier day: never replaces a later one. The next day: written.
    expect((await report(secret, [{ identifierHash: asha, at: '2026-03-10T11:00:00.000Z' }])).body.data.recorded).toBe(0);
    expect((await report(secret, [{ identifierHash: asha, at: '2026-03-01T11:00:00.000Z' }])).body.data.recorded).toBe(0);
    expect(await lastActivityOf(tenant.tenantId, asha)).toBe('2026-03-10T09:00:00.000Z');
    setClock(fixedClock('2026-03-11T12:00:00.000Z'));
    expect((await report(secret, [{ identifierHash: asha, at: '2026-03-11T07:00:00.000Z' }])).body.data.recorded).toBe(1);
    expect(await lastActivityOf(tenant.tenantId, asha)).toBe('2026-03-11T07:00:00.000Z');
  });

  it('counts a consent as activity, from the stream, for a tenant with a retention in force', async () => {
    const tenant = await newTenant(call);
    await inForce(tenant.token);
    const notice = await publishedNotice(call, tenant.token);
    const email = `meera-${tenant.tenantId}@example.in`;
    const recorded = await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } });
    expect(recorded.status).toBe(201);
    const record = (await call('GET', `/api/v1/consent/records?search=${encodeURIComponent(email)}`, { token: tenant.token })).body.data.items[0];
    expect(record.dataPrincipalHash).toBe(sha256(email));
    expect(await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => at ?? undefined))).toBe(record.createdAt);
  });

  it('decides whether decisions count on one fresh read of the settings item a batch, obeying a retention from the next decision', async () => {
    const withdrawal = (tenantId: string, name: string): StreamChange => {
      const image = { PK: tenantPartition(tenantId), SK: `WITHDRAWAL#${name}`, type: 'WithdrawalRecord', tenantId, dataPrincipalHash: sha256(`${name}-${tenantId}`), withdrawnAt: new Date().toISOString() };
      return { eventName: 'INSERT', sequenceNumber: name, keys: { PK: image.PK, SK: image.SK }, newImage: image };
    };
    /** One stream batch of one decision, handled here: what it read, and whether it counted. */
    const decide = async (tenantId: string, name: string) => {
      const { calls } = await callsOf(() => activityConsumer.handle([withdrawal(tenantId, name)]));
      const reads = calls.filter((sent) => !['UpdateItem', 'PutItem', 'TransactWriteItems'].includes(sent.command)).map((sent) => sent.command);
      return { reads, counted: (await lastActivityOf(tenantId, sha256(`${name}-${tenantId}`))) !== null };
    };
    const tenant = await newTenant(call);
    const purposeId = await createPurpose(call, tenant.token, { retention: { period: 'P1Y', from: 'CONSENT' } });
    // As a purpose written before the marks existed left the settings item: no marks at all.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: consentKeys.settings(tenant.tenantId), UpdateExpression: 'REMOVE retainingPurposes, retainingPurposesKnown' }));
    // The first decision without marks reads the purposes (consistently) and marks the one with a retention.
    expect(await decide(tenant.tenantId, 'first')).toEqual({ reads: ['GetItem', 'Query'], counted: true });
    const marked = await getSettingsItem(tenant.tenantId);
    expect([...(marked!.retainingPurposes as Set<string>)]).toEqual([purposeId]);
    expect(marked!.retainingPurposesKnown).toBe(true);
    // From then on one GetItem a batch, never remembered: the retention's removal and return apply from the next decision.
    expect(await decide(tenant.tenantId, 'second')).toEqual({ reads: ['GetItem'], counted: true });
    expect((await call('PUT', `/api/v1/purposes/${purposeId}`, { token: tenant.token, body: { retention: null } })).status).toBe(200);
    expect(await decide(tenant.tenantId, 'third')).toEqual({ reads: ['GetItem'], counted: false });
    expect((await call('PUT', `/api/v1/purposes/${purposeId}`, { token: tenant.token, body: { retention: { period: 'P2Y', from: 'LAST_ACTIVITY' } } })).status).toBe(200);
    expect(await decide(tenant.tenantId, 'fourth')).toEqual({ reads: ['GetItem'], counted: true });
    // A tenant with no purposes is marked at its first decision; a purpose then created with a retention marks itself.
    const other = await newTenant(call);
    expect(await decide(other.tenantId, 'first')).toEqual({ reads: ['GetItem', 'Query'], counted: false });
    expect(await decide(other.tenantId, 'second')).toEqual({ reads: ['GetItem'], counted: false });
    await createPurpose(call, other.token, { retention: { period: 'P6M', from: 'WITHDRAWAL' } });
    expect(await decide(other.tenantId, 'third')).toEqual({ reads: ['GetItem'], counted: true });
  });

  it('counts a rights request once the principal confirms it, never one made for her address unconfirmed', async () => {
    const tenant = await newTenant(call);
    const [asha, ravi] = [uniqueEmail('asha'), uniqueEmail('ravi')];
    // Anyone may fill the public form with Ravi's address: until he confirms, it is not his activity.
    expect((await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: tenant.slug, type: 'ACCESS', email: ravi, details: 'Not his' } })).status).toBe(202);
    await mailedLink(ravi, /confirm your request/);
    const { token } = await confirmedRequest(call, tenant.slug, { type: 'ACCESS', email: asha, details: 'What do you hold about me?' });
    const submittedAt = (await call('GET', `/api/v1/rights/requests/public/${token}`)).body.data.submittedAt as string;
    expect(await waitFor(() => lastActivityOf(tenant.tenantId, sha256(asha)).then((at) => at ?? undefined))).toBe(submittedAt);
    expect(await lastActivityOf(tenant.tenantId, sha256(ravi))).toBeNull();
  });

  it('counts a visit of her own link\'s page, never an unknown or spent link', async () => {
    const tenant = await newTenant(call);
    await inForce(tenant.token);
    const notice = await publishedNotice(call, tenant.token);
    const email = uniqueEmail('visit');
    expect((await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } })).status).toBe(201);
    const consentedAt = await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => at ?? undefined));
    const link = (await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId: notice.noticeId } })).body.data;
    // Opening the link only reads (a mail scanner does it too): her activity stays the consent's.
    expect((await call('GET', `/api/v1/consent/portal/${link.token}`)).status).toBe(200);
    expect((await call('POST', `/api/v1/consent/portal/${'x'.repeat(43)}/visit`)).status).toBe(404);
    // Two days on, her gesture on the page is a new day's activity.
    setClock(offsetClock(2 * 86_400_000));
    try {
      const visit = await call('POST', `/api/v1/consent/portal/${link.token}/visit`);
      expect(visit.status).toBe(202);
      expect(visit.headers.get('cache-control')).toBe('no-store');
      const visitedAt = await lastActivityOf(tenant.tenantId, sha256(email));
      expect(Date.parse(visitedAt!) - Date.parse(consentedAt)).toBeGreaterThan(86_400_000);
    } finally {
      resetClock();
    }
    expect((await call('POST', `/api/v1/consent/portal/${link.token}/withdraw`, { body: {} })).status).toBe(200);
    expect((await call('POST', `/api/v1/consent/portal/${link.token}/visit`)).status).toBe(409);
  });

  it('answers a failed write with no 2xx', async () => {
    const tenant = await newTenant(call);
    const secret = await tenant.apiKey('secret');
    const hash = sha256(`fail-${tenant.tenantId}`);
    const failing = failWrites();
    try {
      expect((await report(secret, [{ identifierHash: hash, at: new Date().toISOString() }])).status).toBeGreaterThanOrEqual(500);
    } finally {
      failing.restore();
    }
    expect(await lastActivityOf(tenant.tenantId, hash)).toBeNull();
  });
});
