import { PutCommand } from '../shared/db/commands';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { noticeKeys } from '../shared/notices/keys';
import { purposeKeys } from '../shared/purposes/keys';
import { newTenant, useApi } from './support/api';
import { createNotice, createPurpose, publish } from './support/notices';

/**
 * A stored item lacking required fields (as the old validation bypass wrote them) never turns a
 * whole list or a publish into a 500: the list leaves it out, and using it alone is a clear 409.
 */
const { call } = useApi();

/** Overwrites a purpose item with one that has lost its fields, as the bypass stored them. */
const corruptPurpose = (tenantId: string, purposeId: string) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { ...purposeKeys.purpose(tenantId, purposeId), type: 'Purpose', purposeId, tenantId } }));

describe('corrupt stored items', () => {
  it('leaves a corrupt purpose out of the list and answers it alone with 409 naming it', async () => {
    const tenant = await newTenant(call);
    const sound = await createPurpose(call, tenant.token);
    const broken = randomUUID();
    await corruptPurpose(tenant.tenantId, broken);
    const list = await call('GET', '/api/v1/purposes', { token: tenant.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((purpose: { id: string }) => purpose.id)).toEqual([sound]);
    const alone = await call('GET', `/api/v1/purposes/${broken}`, { token: tenant.token });
    expect(alone.status).toBe(409);
    expect(alone.body.error.message).toContain(broken);
    expect(alone.body.error.message).toMatch(/stored incomplete/);
  });

  it('answers a publish with a corrupt purpose with 409 naming it, and a repair makes it publishable', async () => {
    const tenant = await newTenant(call);
    const purposeId = await createPurpose(call, tenant.token);
    const noticeId = await createNotice(call, tenant.token, [purposeId]);
    await corruptPurpose(tenant.tenantId, purposeId);
    const refused = await publish(call, tenant.token, noticeId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(purposeId);
    const repaired = await call('PUT', `/api/v1/purposes/${purposeId}`, {
      token: tenant.token,
      body: { name: 'Order updates', description: 'Tell you about your orders', dataCategories: ['email'], legalBasis: 'CONSENT' },
    });
    expect(repaired.status).toBe(200);
    expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  });

  it('leaves a corrupt notice out of the list and answers it alone with 409 naming it', async () => {
    const tenant = await newTenant(call);
    const sound = await createNotice(call, tenant.token, [await createPurpose(call, tenant.token)]);
    const broken = randomUUID();
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...noticeKeys.notice(tenant.tenantId, broken), type: 'Notice', noticeId: broken, tenantId: tenant.tenantId, status: 'DRAFT' } }));
    const list = await call('GET', '/api/v1/notices', { token: tenant.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((notice: { id: string }) => notice.id)).toEqual([sound]);
    for (const response of [await call('GET', `/api/v1/notices/${broken}`, { token: tenant.token }), await publish(call, tenant.token, broken)]) {
      expect(response.status).toBe(409);
      expect(response.body.error.message).toContain(broken);
      expect(response.body.error.message).toMatch(/stored incomplete/);
    }
  });
});
