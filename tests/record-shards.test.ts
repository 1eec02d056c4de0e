import { PutCommand } from '../shared/db/commands';
import { beforeAll, describe, expect, it } from 'vitest';
import { consentKeys, recordShardOf } from '../shared/consent/keys';
import { principalPage } from '../shared/consent/principal-pages';
import type { ConsentRecord } from '../shared/consent/record';
import { recordItem } from '../shared/consent/record-item';
import { sealCursor } from '../shared/crypto/cursor';
import { db, tableName } from '../shared/db/client';
import { newTimeOrderedId } from '../shared/ids';
import { newTenant, useApi } from './support/api';
import { builtRecord, publishedNotice, recordConsent, sha256 } from './support/consent';
import { recordItemsOf, waitForLog } from './support/evidence';
import { useTestWorkers } from './support/workers';

/**
 * Records live in sixteen shards (shared/consent/keys.ts); records written before the shards stay
 * under the tenant's own partition, and every reader reads both layouts. Here a tenant has two
 * records in the old layout (written as the unsharded store wrote them, a day older) and four
 * recorded now, and every way of reading records finds all six, in order, once.
 */
const { call } = useApi();
useTestWorkers();

let tenant: Awaited<ReturnType<typeof newTenant>>;
let noticeId: string;
let legacyIds: string[];
let newIds: string[];

/** A record as the store wrote it before the shards: the same item under PK TENANT#<tid>. */
const storeInOldLayout = async (record: ConsentRecord) => {
  const item = { ...recordItem(record), ...consentKeys.legacyRecord(record.tenantId, record.recordId) };
  await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
};

const list = async (query: string) => (await call('GET', `/api/v1/consent/records?${query}`, { token: tenant.token })).body;

/** Every record a listing returns, page by page through nextCursor. */
const allByCursor = async (query: string) => {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const body = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    ids.push(...body.data.items.map((item: { id: string }) => item.id));
    cursor = body.data.nextCursor;
  } while (cursor);
  return ids;
};

beforeAll(async () => {
  tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  noticeId = notice.noticeId;
  const yesterday = Date.now() - 86_400_000;
  legacyIds = [];
  for (const index of [0, 1]) {
    const createdAt = new Date(yesterday + index * 1000);
    const record = builtRecord(
      {
        tenantId: tenant.tenantId,
        recordId: newTimeOrderedId(createdAt),
        noticeId,
        noticeVersionNumber: 1,
        noticeTextHash: sha256('notice'),
        languageShown: 'EN',
        positionShown: 'bottom-right',
        dataPrincipalHash: sha256(`old${index}@example.com`),
        externalId: null,
        consentGiven: { [notice.required]: true, [notice.optional]: true },
        createdAt: createdAt.toISOString(),
        ipAddress: '192.0.2.1',
        userAgent: null,
      },
      { lineageId: noticeId },
    );
    await storeInOldLayout(record);
    legacyIds.push(record.recordId);
  }
  newIds = [];
  for (const index of [0, 1, 2, 3]) {
    const response = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `new${index}@example.com`, consentGiven: { [notice.required]: true, [notice.optional]: index % 2 === 0 } });
    expect(response.status).toBe(201);
    newIds.push(response.body.data.consentRecordId);
  }
  await waitForLog(tenant.tenantId, 6);
}, 120_000);

describe('records in sixteen shards, and records from before them', () => {
  it('writes a new record to its shard, and keeps the old ones where they were', async () => {
    const items = await recordItemsOf(tenant.tenantId);
    expect(items).toHaveLength(6);
    for (const id of newIds) expect(items.find((item) => item.SK === `RECORD#${id}`)?.PK).toBe(consentKeys.recordPartition(tenant.tenantId, recordShardOf(id)));
    for (const id of legacyIds) expect(items.find((item) => item.SK === `RECORD#${id}`)?.PK).toBe(`TENANT#${tenant.tenantId}`);
  });

  it('lists all six in creation order, both ways, page by page through the cursor', async () => {
    const oldestFirst = [...legacyIds, ...newIds];
    expect(await allByCursor('limit=4&sortOrder=asc')).toEqual(oldestFirst);
    expect(await allByCursor('limit=1&sortOrder=desc')).toEqual([...oldestFirst].reverse());
    const page2 = await list('limit=4&page=2&sortOrder=asc');
    expect(page2.data.items.map((item: { id: string }) => item.id)).toEqual(oldestFirst.slice(4));
    expect(page2.data.total).toBe(6);
  });

  it('goes on from a cursor sealed before the shards (the base table key of its last record)', async () => {
    const cursor = sealCursor(['consent-records', tenant.tenantId, 'createdAt', 'asc', ''], { segment: 0, key: consentKeys.legacyRecord(tenant.tenantId, legacyIds[0]!) });
    const body = await list(`limit=10&sortOrder=asc&cursor=${encodeURIComponent(cursor)}`);
    expect(body.data.items.map((item: { id: string }) => item.id)).toEqual([legacyIds[1], ...newIds]);
  });

  it('finds an old record by id and proves it in the log; withdraws it; verification stays intact', async () => {
    const proof = await call('GET', `/api/v1/consent/records/${legacyIds[0]}/proof`, { token: tenant.token });
    expect(proof.status).toBe(200);
    expect(proof.body.data).toMatchObject({ matches: true, log: { status: 'INTEGRATED' } });
    const withdrawal = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: 'old0@example.com', noticeId } });
    expect(withdrawal.status).toBe(200);
    const withdrawn = await allByCursor('limit=10&status=withdrawn');
    expect(withdrawn).toEqual([legacyIds[0]]);
    expect(await allByCursor('limit=3&status=active&sortOrder=asc')).toEqual([legacyIds[1], ...newIds]);
    await waitForLog(tenant.tenantId, 7);
    const verification = (await call('GET', '/api/v1/consent/proof-chain/verify', { token: tenant.token })).body.data;
    expect(verification).toMatchObject({ intact: true, checked: 7, problems: [] });
  });

  it('exports all six, oldest first, across pages', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const response: Awaited<ReturnType<typeof call>> = await call('GET', `/api/v1/consent/records/export?format=jsonl&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: tenant.token });
      expect(response.status).toBe(200);
      ids.push(...String(response.body).trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id));
      cursor = response.headers.get('x-next-cursor');
    } while (cursor);
    expect(ids).toEqual([...legacyIds, ...newIds]);
  });

  it('reaches every principal, page by page, for a breach', async () => {
    const hashes = new Set<string>();
    let next: Record<string, unknown> | null | undefined;
    do {
      const page = await principalPage(tenant.tenantId, {}, 2, next ?? undefined);
      page.hashes.forEach((hash) => hashes.add(hash));
      next = page.next;
    } while (next);
    expect(hashes.size).toBe(6);
    // A run started before the shards stored the unsharded store's key: it goes on in the old partition, then the shards.
    const resumed = await principalPage(tenant.tenantId, {}, 10, consentKeys.legacyRecord(tenant.tenantId, legacyIds[0]!));
    expect(new Set(resumed.hashes)).toEqual(new Set([sha256('old1@example.com'), ...[0, 1, 2, 3].map((index) => sha256(`new${index}@example.com`))]));
  });
});
