import { describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { principalRecordsWithContact } from '../shared/consent/store';
import { documentsOf } from '../shared/evidence/documents';
import { lastActivityOf } from '../shared/retention/activity';
import { passReserveMs, sweepRetentionDue, sweepRetentionPasses } from '../shared/retention/sweeper';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { recordConsent, sha256 } from './support/consent';
import { createNotice, createPurpose, publish } from './support/notices';
import { startReceiver, waitFor } from './support/receiver';
import { confirmedRequest } from './support/rights';
import { failWrites } from './support/storage';
import { manualSweeps, useTestWorkers } from './support/workers';

/**
 * The retention sweep in process, with the injectable clock: a principal's consent lapses at the
 * end of the purpose's period (records EXPIRED, consent-status false, retention.erasure_due with her
 * hash, the run in the evidence log); with notice, she is noticed first and activity cancels it;
 * a withdrawal starts a WITHDRAWAL clock.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const day = 86_400_000;
const hookSecret = 'retention-hook-secret-0123456789';

const setup = async (retention: Record<string, unknown>, settings: Record<string, unknown> = {}) => {
  const tenant = await newTenant(call);
  const own = (id: string) => id === tenant.tenantId;
  if (Object.keys(settings).length > 0) expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: settings })).status).toBe(200);
  const kept = await createPurpose(call, tenant.token, { name: 'Account', dataCategories: ['email'] });
  const lapsing = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['email'], retention });
  const noticeId = await createNotice(call, tenant.token, [kept, lapsing]);
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const consent = async (email: string) => {
    const recorded = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [kept]: true, [lapsing]: true } });
    expect(recorded.status).toBe(201);
    await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => at ?? undefined));
    return recorded.body.data.consentRecordId as string;
  };
  const status = async (email: string) => (await call('GET', `/api/v1/consent/status/${sha256(email)}`, { token: tenant.token })).body.data[0];
  const sweep = () => sweepRetentionDue({ accept: own });
  return { tenant, kept, lapsing, noticeId, consent, status, sweep };
};

/** A sweep on the clock moved `offsetMs` on. */
const sweptAt = async (sweep: () => Promise<number>, offsetMs: number) => {
  setClock(offsetClock(offsetMs));
  try {
    return await sweep();
  } finally {
    resetClock();
  }
};

describe('the retention sweep', () => {
  it('lapses a purpose at the end of its period: the record, consent-status, the webhook page with her hash, the log entry', async () => {
    const { tenant, kept, lapsing, consent, status, sweep } = await setup({ period: 'P30D', from: 'CONSENT' });
    const receiver = await startReceiver(() => ({ status: 200 }));
    expect((await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'r', url: receiver.url, secret: hookSecret, events: ['retention.erasure_due'] } })).status).toBe(201);
    const email = `lapse-${tenant.tenantId}@example.in`;
    await consent(email);
    await sweep();
    expect((await status(email)).consentGiven).toEqual({ [kept]: true, [lapsing]: true });
    setClock(offsetClock(31 * day));
    try {
      expect(await sweep()).toBeGreaterThan(0);
    } finally {
      resetClock();
    }
    // (Read with the clock back: the dashboard's token would have expired a month on. The local
    // workers sweep too, with the same clock: the expiry may be theirs, finishing a moment later.)
    try {
      const after = await waitFor(async () => ((await status(email))?.expiredAt ? status(email) : undefined));
      expect(after.consentGiven).toEqual({ [kept]: true, [lapsing]: false });
      expect(after).toMatchObject({ consentState: 'ACTIVE', expiredPurposes: [lapsing], expiredAt: expect.any(String), expiryReason: expect.stringContaining('RETENTION_PERIOD_ENDED') });
      const runs = await documentsOf(tenant.tenantId, 'retention-runs');
      expect(runs).toHaveLength(1);
      const run = JSON.parse(runs[0]!.canonical) as { content: { runId: string; principals: number; reason: string } };
      expect(run.content).toMatchObject({ principals: 1, reason: 'RETENTION_PERIOD_ENDED' });
      const delivery = await waitFor(() => receiver.received.find((entry) => JSON.parse(entry.rawBody.toString('utf8')).type === 'retention.erasure_due'), 30_000);
      expect(JSON.parse(delivery.rawBody.toString('utf8')).data).toEqual({ runId: run.content.runId, page: 1, pages: 1, purposeIds: [lapsing], principalHashes: [sha256(email)] });
      // Nothing more falls due: a second sweep changes nothing and logs no second run.
      setClock(offsetClock(32 * day));
      await sweep();
      resetClock();
      expect(await documentsOf(tenant.tenantId, 'retention-runs')).toHaveLength(1);
    } finally {
      resetClock();
      await receiver.close();
    }
  });

  it('stops starting passes when the deadline is near, and the next run goes on from where it stopped', async () => {
    const { tenant, lapsing, consent, status } = await setup({ period: 'P30D', from: 'CONSENT' });
    manualSweeps.add(tenant.tenantId);
    const own = (id: string) => id === tenant.tenantId;
    const email = `deadline-${tenant.tenantId}@example.in`;
    await consent(email);
    // A clock a second further on at every reading: a pass takes time, however fast the machine.
    const base = Date.now() + 31 * day;
    let readings = 0;
    setClock({ now: () => new Date(base + 1_000 * readings++) });
    try {
      // Too little left to start a pass: nothing is done, and it says why it stopped.
      expect(await sweepRetentionPasses({ accept: own, deadline: base + passReserveMs - 1 })).toEqual({ moved: 0, passes: 0, stoppedForDeadline: true });
      // Enough for one: her expiry, and then no second pass (her leaving the index waits).
      readings = 0;
      expect(await sweepRetentionPasses({ accept: own, deadline: base + passReserveMs + 500 })).toEqual({ moved: 1, passes: 1, stoppedForDeadline: true });
      // The next run goes on: she leaves the due index, and nothing is left.
      expect(await sweepRetentionPasses({ accept: own })).toEqual({ moved: 1, passes: 2, stoppedForDeadline: false });
    } finally {
      resetClock();
    }
    expect((await status(email))?.expiredPurposes).toEqual([lapsing]);
    expect(await documentsOf(tenant.tenantId, 'retention-runs')).toHaveLength(1);
  });

  it('expires the whole record when every purpose lapses: consentState EXPIRED, nothing in force', async () => {
    const { tenant, kept, lapsing, consent, status, sweep } = await setup({ period: 'P1Y', from: 'LAST_ACTIVITY' });
    // Only this test's sweeps: a pass of the local workers begun on the moved clock while writes
    // failed could land her erasure once storage is restored, before the assertion that none has.
    manualSweeps.add(tenant.tenantId);
    expect((await call('PUT', `/api/v1/purposes/${kept}`, { token: tenant.token, body: { retention: { period: 'P1Y', from: 'LAST_ACTIVITY' } } })).status).toBe(200);
    const email = `whole-${tenant.tenantId}@example.in`;
    await consent(email);
    expect((await principalRecordsWithContact(tenant.tenantId, sha256(email))).map((row) => typeof row.sealedContact)).toEqual(['string']);
    const before = (await call('GET', `/api/v1/consent/records?search=${encodeURIComponent(email)}`, { token: tenant.token })).body.data.items[0];
    const erasures = async () => (await documentsOf(tenant.tenantId, `retention:${sha256(email)}`)).filter((document) => document.documentType === 'retention.erased');
    // Her erasure's write fails after her expiry landed (as a crash between the two would leave it): she lapses, nothing is erased yet...
    const storage = failWrites({ except: (command, input) => !(command === 'TransactWriteItems' && JSON.stringify(input).includes('retention.erased')) });
    await sweptAt(sweep, 367 * day).finally(storage.restore);
    expect((await status(email))?.consentState).toBe('EXPIRED');
    expect(await erasures()).toEqual([]);
    expect((await principalRecordsWithContact(tenant.tenantId, sha256(email))).map((row) => typeof row.sealedContact)).toEqual(['string']);
    // ...and the next sweep, at her next look, finishes it before she leaves the due index.
    await sweptAt(sweep, 367 * day);
    {
      const after = await waitFor(async () => ((await status(email))?.consentState === 'EXPIRED' ? status(email) : undefined));
      expect(after).toMatchObject({ consentState: 'EXPIRED', consentGiven: { [kept]: false, [lapsing]: false } });
      const listed = (await call('GET', `/api/v1/consent/records?search=${encodeURIComponent(email)}`, { token: tenant.token })).body.data.items[0];
      expect(listed.consentState).toBe('EXPIRED');
      // Counted when made and never withdrawn: still listed, with and without status=active, as the totals count it.
      for (const filter of ['', '&status=active']) {
        const page = (await call('GET', `/api/v1/consent/records?limit=50${filter}`, { token: tenant.token })).body.data;
        expect(page.items.map((item: { id: string }) => item.id)).toContain(listed.id);
        expect(page.total).toBe(page.items.length);
      }
      // Her sealed email is gone, and the erasure logged, once; the record's proof is untouched.
      expect(await erasures()).toHaveLength(1);
      expect((await principalRecordsWithContact(tenant.tenantId, sha256(email))).map((row) => row.sealedContact)).toEqual([undefined]);
      expect(listed.proofHash).toBe(before.proofHash);
    }
  });

  it('notices a principal 48 hours before a Third Schedule erasure, once, and activity cancels it', async () => {
    const { tenant, lapsing, consent, status, sweep } = await setup({ period: 'P3Y', from: 'LAST_ACTIVITY' }, { thirdScheduleClass: 'ECOMMERCE' });
    const email = `notice-${tenant.tenantId}@example.in`;
    await consent(email);
    const subject = `retention:${sha256(email)}`;
    const secret = await tenant.apiKey('secret');
    const notices = async () => (await documentsOf(tenant.tenantId, subject)).filter((document) => document.documentType === 'retention.notice');
    setClock(offsetClock(3 * 365 * day - 3 * day));
    try {
      await sweep();
      expect(await notices()).toHaveLength(0);
    } finally {
      resetClock();
    }
    setClock(offsetClock(3 * 365 * day - day));
    try {
      await sweep();
      await sweep();
      expect(await notices()).toHaveLength(1);
      // Her activity before the due time cancels the erasure, logged; the purpose stays in force.
      expect((await call('POST', '/api/v1/principals/activity', { body: { apiKey: secret, activities: [{ identifierHash: sha256(email), at: new Date(Date.now() + 3 * 365 * day - day).toISOString() }] } })).status).toBe(200);
      await sweep();
      const cancelled = (await documentsOf(tenant.tenantId, subject)).filter((document) => document.documentType === 'retention.cancelled');
      expect(cancelled).toHaveLength(1);
    } finally {
      resetClock();
    }
    setClock(offsetClock(3 * 365 * day + 2 * day));
    try {
      await sweep();
    } finally {
      resetClock();
    }
    expect((await status(email)).consentGiven[lapsing]).toBe(true);
  });

  it('starts a WITHDRAWAL clock at the withdrawal', async () => {
    const { tenant, noticeId, consent, sweep } = await setup({ period: 'P7D', from: 'WITHDRAWAL' });
    const email = `withdraw-${tenant.tenantId}@example.in`;
    await consent(email);
    setClock(offsetClock(30 * day));
    try {
      // A month on, never withdrawn: nothing due.
      await sweep();
      expect(await documentsOf(tenant.tenantId, 'retention-runs')).toHaveLength(0);
    } finally {
      resetClock();
    }
    expect((await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } })).status).toBe(200);
    setClock(offsetClock(6 * day));
    try {
      await sweep();
      expect(await documentsOf(tenant.tenantId, 'retention-runs')).toHaveLength(0);
    } finally {
      resetClock();
    }
    setClock(offsetClock(8 * day));
    try {
      await waitFor(async () => ((await sweep()) >= 0 && (await documentsOf(tenant.tenantId, 'retention-runs')).length === 1 ? true : undefined), 30_000);
    } finally {
      resetClock();
    }
  });
  it('cancels a noticed erasure when she makes a rights request, as reported activity does', async () => {
    const { tenant, lapsing, consent, status, sweep } = await setup({ period: 'P3Y', from: 'LAST_ACTIVITY' }, { thirdScheduleClass: 'ECOMMERCE' });
    const email = `rights-${tenant.tenantId}@example.in`;
    await consent(email);
    const documents = async (type: string) => (await documentsOf(tenant.tenantId, `retention:${sha256(email)}`)).filter((document) => document.documentType === type);
    setClock(offsetClock(3 * 365 * day - day));
    try {
      await waitFor(async () => ((await sweep()) >= 0 && (await documents('retention.notice')).length === 1 ? true : undefined));
      // Her request, confirmed on its link, is her exercising her rights (rule 8(1)): the erasure is cancelled, logged.
      const { token } = await confirmedRequest(call, tenant.slug, { type: 'ACCESS', email, details: 'What do you hold about me?' });
      const submittedAt = (await call('GET', `/api/v1/rights/requests/public/${token}`)).body.data.submittedAt as string;
      expect(await waitFor(() => lastActivityOf(tenant.tenantId, sha256(email)).then((at) => (at === submittedAt ? at : undefined)))).toBe(submittedAt);
      await waitFor(async () => ((await sweep()) >= 0 && (await documents('retention.cancelled')).length === 1 ? true : undefined));
    } finally {
      resetClock();
    }
    // Past the noticed due time, and past the Rules' 48 hours: her purpose stays in force.
    await sweptAt(sweep, 3 * 365 * day + 2 * day);
    expect((await status(email)).consentGiven[lapsing]).toBe(true);
  });
});
