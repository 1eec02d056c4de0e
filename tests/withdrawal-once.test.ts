import { QueryCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { mailsTo } from './support/mail';

/**
 * One decision, one withdrawal: simultaneous identical withdrawals of one consent (a double
 * click, a retrying client, an attacker) make exactly one WithdrawalRecord, one compliance task
 * and one DPO mail; the others are 409 CONFLICT.
 */
const { call } = useApi();

const withdrawalsOf = async (tenantId: string) => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':prefix': 'WITHDRAWAL#' },
      ConsistentRead: true,
    }),
  );
  return Items;
};

const expectOneWithdrawal = async (tenant: Awaited<ReturnType<typeof newTenant>>, statuses: { status: number; body: { data?: { withdrawnCount: number }; error?: { code: string } } }[]) => {
  const winners = statuses.filter((response) => response.status === 200);
  expect(winners).toHaveLength(1);
  // Whichever request applied it, the one that committed reports the record it withdrew.
  expect(winners[0]!.body.data?.withdrawnCount).toBe(1);
  const others = statuses.filter((response) => response.status !== 200);
  expect(others.map((response) => `${response.status} ${response.body.error?.code}`)).toEqual(others.map(() => '409 CONFLICT'));
  expect(await withdrawalsOf(tenant.tenantId)).toHaveLength(1);
  expect((await call('GET', '/api/v1/compliance-tasks', { token: tenant.token })).body.data).toHaveLength(1);
  const dpoMails = (await mailsTo(tenant.adminEmail)).filter((mail) => mail.subject.startsWith('Consent withdrawn'));
  expect(dpoMails).toHaveLength(1);
};

describe('exactly one withdrawal per decision', () => {
  it('makes one withdrawal of 20 simultaneous widget withdrawals of one record', async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    const notice = await publishedNotice(call, tenant.token);
    const recorded = await call('POST', '/api/v1/consent/sdk-record', { body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true } } });
    expect(recorded.status).toBe(201);
    const { consentRecordId, withdrawalKey } = recorded.body.data;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/v1/consent/sdk-withdraw', { body: { apiKey, consentRecordId, withdrawalKey } })),
    );
    await expectOneWithdrawal(tenant, results);
  });

  it('makes one withdrawal of 10 simultaneous DPO withdrawals of one principal', async () => {
    const tenant = await newTenant(call);
    const notice = await publishedNotice(call, tenant.token);
    const email = `once-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await recordConsent(call, tenant.token, { noticeId: notice.noticeId, dataPrincipalIdentifier: email, consentGiven: { [notice.required]: true } })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId: notice.noticeId } })),
    );
    await expectOneWithdrawal(tenant, results);
  });
});
