import { describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { batchWriteAll } from '../shared/db/batch';
import { documentsOf } from '../shared/evidence/documents';
import { lastActivityOf } from '../shared/retention/activity';
import { activityItemType, retentionKeys } from '../shared/retention/keys';
import { dueSchedules } from '../shared/retention/store';
import { sweepLimits, sweepRetention } from '../shared/retention/sweeper';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { recordConsent, sha256 } from './support/consent';
import { createNotice, createPurpose, publish } from './support/notices';
import { waitFor } from './support/receiver';
import { manualSweeps, useTestWorkers } from './support/workers';

/**
 * One tenant's large day never delays another tenant's notices (issue 34): two tenants due the
 * same day, one with 10,000 principals ahead of the other in the due index; after one pass the
 * small tenant's notices are all out while the large one is still in progress, and the large one
 * finishes within ceil(10,000 / tenantBudget) passes. In process, on the injectable clock; the
 * local workers leave both tenants to the test's own passes.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const day = 86_400_000;
const large = 10_000;

describe('fairness of the retention sweep', () => {
  it("sends a small tenant's notices in the first pass while a large tenant's 10,000 due principals take several", async () => {
    const small = await newTenant(call);
    const big = await newTenant(call);
    for (const tenant of [small, big]) manualSweeps.add(tenant.tenantId);
    const ours = (tenantId: string) => tenantId === small.tenantId || tenantId === big.tenantId;

    // The small tenant: three principals whose consent to a 30-day purpose was given now, 48 hours' notice.
    expect((await call('PUT', '/api/v1/retention/settings', { token: small.token, body: { noticeHours: 48 } })).status).toBe(200);
    const purpose = await createPurpose(call, small.token, { name: 'Offers', dataCategories: ['email'], retention: { period: 'P30D', from: 'CONSENT' } });
    const noticeId = await createNotice(call, small.token, [purpose]);
    expect((await publish(call, small.token, noticeId)).status).toBe(200);
    const emails = [1, 2, 3].map((index) => `fair-${index}-${small.tenantId}@example.in`);
    for (const email of emails) {
      expect((await recordConsent(call, small.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [purpose]: true } })).status).toBe(201);
      await waitFor(() => lastActivityOf(small.tenantId, sha256(email)).then((at) => at ?? undefined));
    }

    // The large tenant: 10,000 principals in the due index an hour before the small tenant's, so
    // in every shard they come first (seeded straight into the table, 25 an item batch, 16 batches at once).
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    const requests = Array.from({ length: large }, (_, index) => {
      const identifierHash = sha256(`big-${index}-${big.tenantId}`);
      return { PutRequest: { Item: { ...retentionKeys.activity(big.tenantId, identifierHash), type: activityItemType, tenantId: big.tenantId, identifierHash, lastActivityAt: earlier, nextAt: earlier, ...retentionKeys.due(big.tenantId, identifierHash, earlier) } } };
    });
    const chunk = Math.ceil(requests.length / 16);
    await Promise.all(Array.from({ length: 16 }, (_, part) => batchWriteAll(requests.slice(part * chunk, (part + 1) * chunk))));
    const remaining = async (tenantId: string) => (await dueSchedules(new Date(Date.now() + 29 * day).toISOString(), large)).filter((entry) => entry.tenantId === tenantId).length;
    const noticed = async () => (await Promise.all(emails.map((email) => documentsOf(small.tenantId, `retention:${sha256(email)}`)))).map((documents) => documents.filter((document) => document.documentType === 'retention.notice').length);
    expect(await remaining(big.tenantId)).toBe(large);

    setClock(offsetClock(29 * day));
    try {
      await sweepRetention({ accept: ours });
      // One pass: every notice of the small tenant is out; the large tenant got its share, no more.
      expect(await noticed()).toEqual([1, 1, 1]);
      expect(await remaining(big.tenantId)).toBe(large - sweepLimits.tenantBudget);
      const bound = Math.ceil(large / sweepLimits.tenantBudget);
      let passes = 1;
      while ((await sweepRetention({ accept: ours })) > 0) passes += 1;
      expect(await remaining(big.tenantId)).toBe(0);
      expect(passes).toBeLessThanOrEqual(bound);
      // Noticed once: the later passes sent nothing more.
      expect(await noticed()).toEqual([1, 1, 1]);
    } finally {
      resetClock();
    }
  }, 300_000);
});
