import { PutCommand, UpdateCommand } from '../shared/db/commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentKeys } from '../shared/consent/keys';
import { monthOf } from '../shared/consent/monthly-volume';
import { db, tableName } from '../shared/db/client';
import { newTenant, useApi } from './support/api';
import { publishedNotice } from './support/consent';

/**
 * The monthly consent volume is taken from chunks each warm instance reserves (MONTHLY_VOLUME_CHUNK);
 * the reserved total never passes the limit, so the volume is never exceeded, whatever runs at once.
 */
const { call } = useApi();
beforeAll(() => {
  // Far above what these tests send: only the monthly volume may refuse them.
  process.env.RATE_LIMIT_SDK_PER_KEY_PER_MINUTE = '100000';
  process.env.RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE = '100000';
});
afterAll(() => {
  delete process.env.RATE_LIMIT_SDK_PER_KEY_PER_MINUTE;
  delete process.env.RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE;
});

const tenantWithLimit = async (limit: number) => {
  const tenant = await newTenant(call);
  const { required } = await publishedNotice(call, tenant.token);
  const apiKey = await tenant.apiKey();
  await db().send(
    new UpdateCommand({ TableName: tableName(), Key: { PK: `TENANT#${tenant.tenantId}`, SK: 'TENANT' }, UpdateExpression: 'SET limits.monthlyConsentLimit = :limit', ExpressionAttributeValues: { ':limit': limit } }),
  );
  const sdk = () => call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [required]: true } } });
  return { tenant, sdk };
};

describe('monthly consent volume', () => {
  it('admits exactly the limit of 60 simultaneous consents, across chunks (20 + 20 + 5 for 45)', async () => {
    const { sdk } = await tenantWithLimit(45);
    const statuses = (await Promise.all(Array.from({ length: 60 }, sdk))).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(45);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('takes only what another instance left: never past the limit, however the volume was reserved', async () => {
    const { tenant, sdk } = await tenantWithLimit(30);
    // Another warm instance holds 27 of the month's 30 (reserved, whether or not it used them).
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...consentKeys.monthlyVolume(tenant.tenantId, monthOf(new Date())), reserved: 27 } }));
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await sdk()).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});
