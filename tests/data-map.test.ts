import { describe, expect, it } from 'vitest';
import { getAsset } from '../shared/data-map/store';
import { deleteAssetIfUnlinked, deleteUnlinkedProcessor } from '../shared/data-map/store';
import { newTenant, useApi, type Call } from './support/api';
import { createNotice, createPurpose, publish } from './support/notices';

const { call } = useApi();

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const processor = async (tenant: Tenant, overrides: Record<string, unknown> = {}) => {
  const response = await call('POST', '/api/v1/processors', { token: tenant.token, body: { name: 'Mailer Ltd', role: 'PROCESSOR', contactEmail: 'dpo@mailer.example', country: 'IN', ...overrides } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { processorId: string; linkedAssets: number };
};

const asset = async (tenant: Tenant, body: Record<string, unknown>) => {
  const response = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: 'Orders', system: 'orders database', location: 'IN', dataCategories: ['email', 'address'], ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { assetId: string; processorIds: string[]; linkedToPublishedNotice: boolean };
};

const linkedAssets = async (tenant: Tenant, processorId: string) =>
  (await call('GET', `/api/v1/processors/${processorId}`, { token: tenant.token })).body.data.linkedAssets as number;

const publishedWith = async (tenant: Tenant, purposeId: string, c: Call = call) => {
  const noticeId = await createNotice(c, tenant.token, [purposeId]);
  expect((await publish(c, tenant.token, noticeId)).status).toBe(200);
  return noticeId;
};

describe('data map', () => {
  it('creates, lists, changes and deletes assets and processors, keeping each processor\'s link count', async () => {
    const tenant = await newTenant(call);
    const purposeId = await createPurpose(call, tenant.token);
    const mailer = await processor(tenant);
    const police = await processor(tenant, { name: 'Cyber cell', role: 'FIDUCIARY', contactEmail: null, lawfulDisclosure: true });
    expect(police).toMatchObject({ role: 'FIDUCIARY', lawfulDisclosure: true, contactEmail: null, linkedAssets: 0, description: '' });
    const orders = await asset(tenant, { purposeIds: [purposeId], processorIds: [mailer.processorId, police.processorId], retentionDays: 365 });
    expect(orders).toMatchObject({ name: 'Orders', description: '', system: 'orders database', location: 'IN', purposeIds: [purposeId], retentionDays: 365, linkedToPublishedNotice: false });
    expect(await linkedAssets(tenant, mailer.processorId)).toBe(1);

    const listed = await call('GET', '/api/v1/data-assets', { token: tenant.token });
    expect(listed.body.data.map((item: { assetId: string }) => item.assetId)).toEqual([orders.assetId]);
    expect((await call('GET', '/api/v1/processors', { token: await tenant.userToken('VIEWER') })).body.data).toHaveLength(2);

    const changed = await call('PUT', `/api/v1/data-assets/${orders.assetId}`, { token: tenant.token, body: { processorIds: [police.processorId], retentionDays: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ processorIds: [police.processorId], retentionDays: null, name: 'Orders' });
    expect(await linkedAssets(tenant, mailer.processorId)).toBe(0);
    expect(await linkedAssets(tenant, police.processorId)).toBe(1);
    expect((await call('PUT', `/api/v1/processors/${mailer.processorId}`, { token: tenant.token, body: { country: 'SG' } })).body.data).toMatchObject({ country: 'SG', name: 'Mailer Ltd' });

    expect((await call('DELETE', `/api/v1/processors/${mailer.processorId}`, { token: tenant.token })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/data-assets/${orders.assetId}`, { token: tenant.token })).status).toBe(200);
    expect(await linkedAssets(tenant, police.processorId)).toBe(0);
    expect((await call('GET', `/api/v1/data-assets/${orders.assetId}`, { token: tenant.token })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/processors/${mailer.processorId}`, { token: tenant.token })).status).toBe(404);
  });

  it('names the field of an unknown purpose or processor, and answers another tenant\'s ids with 404', async () => {
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    const theirs = await processor(other);
    const theirPurpose = await createPurpose(call, other.token);
    const unknownPurpose = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: 'CRM', dataCategories: ['email'], purposeIds: [theirPurpose] } });
    expect(unknownPurpose.status).toBe(400);
    expect(unknownPurpose.body.error.fields).toEqual({ purposeIds: expect.stringContaining(theirPurpose) });
    const unknownProcessor = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: 'CRM', dataCategories: ['email'], processorIds: [theirs.processorId] } });
    expect(unknownProcessor.status).toBe(400);
    expect(unknownProcessor.body.error.fields).toEqual({ processorIds: expect.stringContaining(theirs.processorId) });
    const badBody = await call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: '', dataCategories: [], retentionDays: 0, extra: 1 } });
    expect(Object.keys(badBody.body.error.fields).sort()).toEqual(['dataCategories', 'extra', 'name', 'retentionDays']);
    expect((await call('GET', `/api/v1/processors/${theirs.processorId}`, { token: tenant.token })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/processors/${theirs.processorId}`, { token: tenant.token })).status).toBe(404);
    expect((await call('GET', '/api/v1/data-assets', { token: tenant.token })).body.data).toEqual([]);
  });

  it('refuses to delete an asset whose purpose is published, and a processor an asset lists (409s explained)', async () => {
    const tenant = await newTenant(call);
    const published = await createPurpose(call, tenant.token, { name: 'Delivery' });
    const unpublished = await createPurpose(call, tenant.token, { name: 'Research' });
    const noticeId = await publishedWith(tenant, published);
    const mailer = await processor(tenant);
    const linked = await asset(tenant, { purposeIds: [published, unpublished], processorIds: [mailer.processorId] });
    expect(linked.linkedToPublishedNotice).toBe(true);
    const refused = await call('DELETE', `/api/v1/data-assets/${linked.assetId}`, { token: tenant.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'ASSET_LINKED_TO_PUBLISHED_NOTICE', details: { noticeId, purposeIds: [published] } });
    const busy = await call('DELETE', `/api/v1/processors/${mailer.processorId}`, { token: tenant.token });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: 'PROCESSOR_HAS_LINKED_ASSETS', details: { linkedAssets: 1, assets: [{ assetId: linked.assetId, name: 'Orders' }] } });
    // Off the published purpose and the processor, both go.
    expect((await call('PUT', `/api/v1/data-assets/${linked.assetId}`, { token: tenant.token, body: { purposeIds: [unpublished], processorIds: [] } })).body.data.linkedToPublishedNotice).toBe(false);
    expect((await call('DELETE', `/api/v1/processors/${mailer.processorId}`, { token: tenant.token })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/data-assets/${linked.assetId}`, { token: tenant.token })).status).toBe(200);
  });

  it('lets no link slip past a delete: a publish or a new link landing between the delete\'s read and its write fails its condition', async () => {
    const tenant = await newTenant(call);
    const purposeId = await createPurpose(call, tenant.token);
    const created = await asset(tenant, { purposeIds: [purposeId] });
    // The delete read the asset and "nothing published"; a publish of its purpose lands before the write.
    const read = (await getAsset(tenant.tenantId, created.assetId))!;
    await publishedWith(tenant, purposeId);
    expect(await deleteAssetIfUnlinked(read, undefined)).toEqual({ failed: 'published notice' });
    expect(await getAsset(tenant.tenantId, created.assetId)).toBeDefined();
    expect((await call('DELETE', `/api/v1/data-assets/${created.assetId}`, { token: tenant.token })).body.error.code).toBe('ASSET_LINKED_TO_PUBLISHED_NOTICE');
    // The processor's delete counts on the links as they are at its write, not at any earlier read.
    const mailer = await processor(tenant);
    await asset(tenant, { name: 'CRM', processorIds: [mailer.processorId] });
    expect(await deleteUnlinkedProcessor(tenant.tenantId, mailer.processorId)).toBe(false);
  });

  it('of a processor delete and an asset linking it at the same moment, never lets both land', async () => {
    const tenant = await newTenant(call);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const target = await processor(tenant);
        // Either may start first: some pairs link before the delete, some after.
        const staggered = <T,>(work: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => work().then(resolve, reject), Math.random() * 60));
        const [deleted, linked] = await Promise.all([
          staggered(() => call('DELETE', `/api/v1/processors/${target.processorId}`, { token: tenant.token })),
          staggered(() => call('POST', '/api/v1/data-assets', { token: tenant.token, body: { name: 'Race', dataCategories: ['email'], processorIds: [target.processorId] } })),
        ]);
        return [deleted.status, linked.status];
      }),
    );
    for (const [deleted, linked] of outcomes) expect([[200, 400], [409, 201]]).toContainEqual([deleted, linked]);
    const assets = (await call('GET', '/api/v1/data-assets', { token: tenant.token })).body.data as { processorIds: string[] }[];
    const processors = new Set(((await call('GET', '/api/v1/processors', { token: tenant.token })).body.data as { processorId: string }[]).map((item) => item.processorId));
    for (const item of assets) for (const id of item.processorIds) expect(processors.has(id)).toBe(true);
  });

  it('is not on the collect-only plan: 403 FEATURE_NOT_AVAILABLE on the data map and rights routes', async () => {
    const tenant = await newTenant(call, { plan: 'collect-only' });
    for (const [method, path, body] of [
      ['GET', '/api/v1/data-assets'],
      ['POST', '/api/v1/processors', { name: 'X', role: 'PROCESSOR', country: 'IN' }],
      ['GET', '/api/v1/rights/requests'],
      ['GET', '/api/v1/rights/settings'],
      ['POST', '/api/v1/rights/requests', { type: 'ACCESS', dataPrincipalIdentifier: 'a@b.example', details: 'Everything', channel: 'EMAIL' }],
      ['GET', `/api/v1/rights/means/${tenant.slug}`],
    ] as const) {
      const response = await call(method, path, { token: tenant.token, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('FEATURE_NOT_AVAILABLE');
    }
  });
});
