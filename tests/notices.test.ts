import { describe, expect, it } from 'vitest';
import { newTenant, useApi } from './support/api';
import { createNotice, createPurpose, noticeBody, publish } from './support/notices';

const { call } = useApi();

const get = (token: string, path: string) => call('GET', path, { token });

describe('purposes', () => {
  it('are created, listed, read and updated with their rules', async () => {
    const tenant = await newTenant(call);
    const id = await createPurpose(call, tenant.token);
    const read = await get(tenant.token, `/api/v1/purposes/${id}`);
    expect(read.body.data).toMatchObject({ id, legalBasis: 'CONSENT', dataCategories: ['email', 'phone'] });
    const updated = await call('PUT', `/api/v1/purposes/${id}`, { token: tenant.token, body: { legalBasis: 'LEGITIMATE_USE' } });
    expect(updated.body.data.legalBasis).toBe('LEGITIMATE_USE');
    expect((await get(tenant.token, '/api/v1/purposes')).body.data.map((p: { id: string }) => p.id)).toEqual([id]);

    const invalid = await call('POST', '/api/v1/purposes', { token: tenant.token, body: { name: '', description: 'x', dataCategories: [], legalBasis: 'WHIM', tenantId: 'x' } });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.error.fields).sort()).toEqual(['dataCategories', 'legalBasis', 'name', 'tenantId']);
    const viewer = await tenant.userToken('VIEWER');
    expect((await call('POST', '/api/v1/purposes', { token: viewer, body: { name: 'a', description: 'b', dataCategories: ['c'] } })).status).toBe(403);
    const other = await newTenant(call);
    expect((await get(other.token, `/api/v1/purposes/${id}`)).status).toBe(404);
    expect((await call('PUT', `/api/v1/purposes/${id}`, { token: other.token, body: { name: 'stolen' } })).status).toBe(404);
  });
});

describe('notice authoring', () => {
  it('creates a DRAFT and refuses system fields, foreign purposes and stray purposeConfig', async () => {
    const tenant = await newTenant(call);
    const other = await newTenant(call);
    const mine = await createPurpose(call, tenant.token);
    const theirs = await createPurpose(call, other.token);

    const created = await call('POST', '/api/v1/notices', { token: tenant.token, body: noticeBody([mine]) });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'DRAFT', versionNumber: null, consentCount: 0 });

    for (const field of ['status', 'versionNumber', 'tenantId', 'createdAt', 'proofHash']) {
      const response = await call('POST', '/api/v1/notices', { token: tenant.token, body: { ...noticeBody([mine]), [field]: 'x' } });
      expect(response.status).toBe(400);
      expect(response.body.error.fields[field]).toBe('Unknown field');
    }
    const foreign = await call('POST', '/api/v1/notices', { token: tenant.token, body: noticeBody([mine, theirs]) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields.purposeIds).toContain(theirs);

    const stray = await call('POST', '/api/v1/notices', {
      token: tenant.token,
      body: noticeBody([mine], { purposeConfig: [{ purposeId: theirs, isRequired: true, displayOrder: 0 }] }),
    });
    expect(stray.body.error.fields['purposeConfig.0.purposeId']).toBeDefined();

    const nested = await call('POST', '/api/v1/notices', {
      token: tenant.token,
      body: noticeBody([mine], { purposeConfig: [{ purposeId: mine, isRequired: 'yes', displayOrder: 0, extra: 1 }] }),
    });
    expect(nested.body.error.fields).toMatchObject({ 'purposeConfig.0.isRequired': expect.any(String), 'purposeConfig.0.extra': 'Unknown field' });

    const short = await call('POST', '/api/v1/notices', { token: tenant.token, body: noticeBody([mine], { title: 'ab', introText: 'too short', purposeIds: [] }) });
    expect(Object.keys(short.body.error.fields).sort()).toEqual(['introText', 'purposeIds', 'title']);
  });

  it('updates a DRAFT partially and refuses to change a PUBLISHED or ARCHIVED one', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const id = await createNotice(call, tenant.token, [purpose]);
    const updated = await call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: { title: 'Updated title', contactUrl: 'https://shop.example/privacy' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'Updated title', contactUrl: 'https://shop.example/privacy', introText: noticeBody([]).introText });
    const cleared = await call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: { contactUrl: null } });
    expect(cleared.body.data.contactUrl).toBeNull();
    expect((await call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: {} })).status).toBe(400);

    expect((await publish(call, tenant.token, id)).status).toBe(200);
    const onPublished = await call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: { title: 'Sneaky edit' } });
    expect(onPublished.status).toBe(409);
    expect(onPublished.body.error.code).toBe('CONFLICT');
    await call('POST', `/api/v1/notices/${id}/archive`, { token: tenant.token });
    expect((await call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: { title: 'Sneaky edit' } })).status).toBe(409);
  });

  it('needs DPO or SUPER_ADMIN to create, update and publish, and hides other tenants', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const id = await createNotice(call, tenant.token, [purpose]);
    for (const role of ['ANALYST', 'VIEWER'] as const) {
      const token = await tenant.userToken(role);
      expect((await call('POST', '/api/v1/notices', { token, body: noticeBody([purpose]) })).status).toBe(403);
      expect((await call('PUT', `/api/v1/notices/${id}`, { token, body: { title: 'x x x' } })).status).toBe(403);
      expect((await publish(call, token, id)).status).toBe(403);
      expect((await get(token, `/api/v1/notices/${id}`)).status).toBe(200);
    }
    const dpo = await tenant.userToken('DPO');
    expect((await publish(call, dpo, id)).status).toBe(200);

    const other = await newTenant(call);
    for (const [method, path] of [
      ['GET', `/api/v1/notices/${id}`],
      ['PUT', `/api/v1/notices/${id}`],
      ['POST', `/api/v1/notices/${id}/archive`],
      ['POST', `/api/v1/notices/${id}/revise`],
      ['GET', `/api/v1/notices/${id}/versions`],
    ] as const) {
      const response = await call(method, path, { token: other.token, ...(method === 'PUT' ? { body: { title: 'mine now' } } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await get(other.token, '/api/v1/notices')).body.data).toEqual([]);
    expect((await get(other.token, '/api/v1/notices/active')).status).toBe(404);
  });

  it("enforces the plan's notice limit", async () => {
    process.env.DEFAULT_NOTICE_LIMIT = '2';
    try {
      const tenant = await newTenant(call);
      const purpose = await createPurpose(call, tenant.token);
      await createNotice(call, tenant.token, [purpose]);
      const second = await createNotice(call, tenant.token, [purpose]);
      const third = await call('POST', '/api/v1/notices', { token: tenant.token, body: noticeBody([purpose]) });
      expect(third.status).toBe(403);
      expect(third.body.error.code).toBe('PLAN_LIMIT_REACHED');
      // Deleting a draft frees its place.
      expect((await call('POST', `/api/v1/notices/${second}/archive`, { token: tenant.token })).body.data.action).toBe('DELETED');
      expect((await call('POST', '/api/v1/notices', { token: tenant.token, body: noticeBody([purpose]) })).status).toBe(201);
    } finally {
      delete process.env.DEFAULT_NOTICE_LIMIT;
    }
  });
});

describe('publishing', () => {
  it('publishes, archives the previous notice atomically and reports material changes', async () => {
    const tenant = await newTenant(call);
    const marketing = await createPurpose(call, tenant.token, { name: 'Marketing', dataCategories: ['email'] });
    const analytics = await createPurpose(call, tenant.token, { name: 'Analytics', dataCategories: ['usage'] });
    const first = await createNotice(call, tenant.token, [marketing]);
    const firstPublish = await publish(call, tenant.token, first, 'First version');
    expect(firstPublish.body.data).toEqual({
      id: first,
      status: 'PUBLISHED',
      versionNumber: 1,
      materialChangeDetected: false,
      materialChanges: [],
      fromVersionNumber: null,
      toVersionNumber: 1,
    });
    expect((await get(tenant.token, '/api/v1/notices/active')).body.data.id).toBe(first);

    const second = await createNotice(call, tenant.token, [marketing, analytics]);
    const secondPublish = await publish(call, tenant.token, second);
    expect(secondPublish.status).toBe(200);
    expect(secondPublish.body.data).toMatchObject({ versionNumber: 1, materialChangeDetected: true, fromVersionNumber: 1 });
    expect(secondPublish.body.data.materialChanges).toEqual([
      { field: `purposes.${analytics}`, type: 'added', isMaterial: true, newValue: expect.objectContaining({ id: analytics }) },
    ]);
    expect((await get(tenant.token, `/api/v1/notices/${first}`)).body.data.status).toBe('ARCHIVED');
    expect((await get(tenant.token, '/api/v1/notices/active')).body.data.id).toBe(second);

    const again = await publish(call, tenant.token, second);
    expect(again.status).toBe(409);
    expect((await publish(call, tenant.token, first)).status).toBe(409);

    const listed = await get(tenant.token, '/api/v1/notices');
    expect(listed.body.data.map((notice: { id: string }) => notice.id)).toEqual([second]);
    const all = await get(tenant.token, '/api/v1/notices?includeArchived=true');
    expect(all.body.data.map((notice: { id: string; consentCount: number }) => [notice.id, notice.consentCount])).toEqual([
      [second, 0],
      [first, 0],
    ]);
  });

  it('refuses an incomplete notice, naming each missing item', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const previous = process.env.PORTAL_BASE_URL;
    const id = await createNotice(call, tenant.token, [purpose], { withdrawalUrl: undefined });
    // Without a portal and without its own withdrawal URL the notice names no withdrawal route.
    process.env.CMS_STAGE = 'aws';
    delete process.env.PORTAL_BASE_URL;
    try {
      const response = await publish(call, tenant.token, id);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { withdrawalUrl: expect.any(String) } });
    } finally {
      process.env.CMS_STAGE = 'local';
      if (previous !== undefined) process.env.PORTAL_BASE_URL = previous;
    }
    // The local stack's portal counts as the withdrawal route.
    expect((await publish(call, tenant.token, id)).status).toBe(200);
  });

  it('leaves exactly one PUBLISHED notice when two drafts are published at once', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const current = await createNotice(call, tenant.token, [purpose]);
    await publish(call, tenant.token, current);
    const a = await createNotice(call, tenant.token, [purpose], { title: 'Draft A' });
    const b = await createNotice(call, tenant.token, [purpose], { title: 'Draft B' });
    const results = await Promise.all([publish(call, tenant.token, a), publish(call, tenant.token, b)]);
    // Either one wins and the other is refused, or they land one after the other; never both at once.
    const statuses = results.map((result) => result.status);
    expect(statuses).toContain(200);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const all = (await get(tenant.token, '/api/v1/notices?includeArchived=true')).body.data as { id: string; status: string }[];
    const published = all.filter((notice) => notice.status === 'PUBLISHED');
    expect(published).toHaveLength(1);
    expect((await get(tenant.token, '/api/v1/notices/active')).body.data.id).toBe(published[0]!.id);
    expect(all.find((notice) => notice.id === current)!.status).toBe('ARCHIVED');
    const statusOf = (id: string) => all.find((notice) => notice.id === id)!.status;
    results.forEach((result, index) => {
      const id = index === 0 ? a : b;
      // A refused publish leaves its draft a draft; an accepted one is published or was replaced.
      expect(result.status === 200 ? ['PUBLISHED', 'ARCHIVED'] : ['DRAFT']).toContain(statusOf(id));
      if (result.status === 200) expect(result.body.data.versionNumber).toBe(1);
    });
  });

  it('never lets an edit racing a publish alter the published snapshot', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    for (let round = 0; round < 5; round += 1) {
      const id = await createNotice(call, tenant.token, [purpose], { title: 'Original title' });
      const [published, edited] = await Promise.all([
        publish(call, tenant.token, id),
        call('PUT', `/api/v1/notices/${id}`, { token: tenant.token, body: { title: 'Edited title' } }),
      ]);
      const notice = (await get(tenant.token, `/api/v1/notices/${id}`)).body.data;
      if (published.status === 200) {
        const [snapshot] = (await get(tenant.token, `/api/v1/notices/${id}/versions`)).body.data;
        // The snapshot and the published notice say the same thing, whichever request landed first.
        expect(snapshot.title).toBe(notice.title);
        expect(edited.status === 200 ? 'Edited title' : 'Original title').toBe(snapshot.title);
      } else {
        expect(published.status).toBe(409);
        expect(notice.status).toBe('DRAFT');
      }
    }
  });
});

describe('archive', () => {
  it('deletes a DRAFT, soft-archives a PUBLISHED notice and refuses an ARCHIVED one', async () => {
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const draft = await createNotice(call, tenant.token, [purpose]);
    const deleted = await call('POST', `/api/v1/notices/${draft}/archive`, { token: tenant.token });
    expect(deleted.body.data).toMatchObject({ action: 'DELETED', noticeId: draft, consentCount: 0 });
    expect((await get(tenant.token, `/api/v1/notices/${draft}`)).status).toBe(404);

    const published = await createNotice(call, tenant.token, [purpose]);
    await publish(call, tenant.token, published);
    const viewer = await tenant.userToken('VIEWER');
    expect((await call('POST', `/api/v1/notices/${published}/archive`, { token: viewer })).status).toBe(403);
    const archived = await call('POST', `/api/v1/notices/${published}/archive`, { token: await tenant.userToken('DPO') });
    expect(archived.body.data).toMatchObject({ action: 'ARCHIVED', noticeId: published, consentCount: 0, message: expect.any(String) });
    expect((await get(tenant.token, `/api/v1/notices/${published}`)).body.data.status).toBe('ARCHIVED');
    expect((await get(tenant.token, `/api/v1/notices/${published}/versions`)).body.data).toHaveLength(1);
    expect((await get(tenant.token, '/api/v1/notices/active')).status).toBe(404);
    const twice = await call('POST', `/api/v1/notices/${published}/archive`, { token: tenant.token });
    expect(twice.status).toBe(409);
  });
});

describe('versions', () => {
  it('revises into the same lineage, numbers versions per lineage and diffs any two', async () => {
    const tenant = await newTenant(call);
    const email = await createPurpose(call, tenant.token, { name: 'Newsletter', dataCategories: ['email'] });
    const v1 = await createNotice(call, tenant.token, [email]);
    await publish(call, tenant.token, v1, 'Launch');

    const revised = await call('POST', `/api/v1/notices/${v1}/revise`, { token: tenant.token });
    expect(revised.status).toBe(201);
    expect(revised.body.data).toMatchObject({ status: 'DRAFT', versionNumber: null, lineageId: expect.any(String) });
    const v2 = revised.body.data.id;
    await call('PUT', `/api/v1/notices/${v2}`, { token: tenant.token, body: { title: 'Privacy notice, revised' } });
    const second = await publish(call, tenant.token, v2, 'Wording');
    expect(second.body.data).toMatchObject({ versionNumber: 2, fromVersionNumber: 1, materialChangeDetected: false, materialChanges: [] });

    await call('PUT', `/api/v1/purposes/${email}`, { token: tenant.token, body: { dataCategories: ['email', 'location'] } });
    const v3 = (await call('POST', `/api/v1/notices/${v2}/revise`, { token: tenant.token })).body.data.id;
    const third = await publish(call, tenant.token, v3);
    expect(third.body.data).toMatchObject({ versionNumber: 3, materialChangeDetected: true });
    expect(third.body.data.materialChanges).toEqual([
      { field: `purposes.${email}.dataCategories`, type: 'modified', isMaterial: true, newValue: ['email', 'location'] },
    ]);

    const versions = (await get(tenant.token, `/api/v1/notices/${v1}/versions`)).body.data;
    expect(versions.map((version: { versionNumber: number }) => version.versionNumber)).toEqual([3, 2, 1]);
    expect(versions[2]).toMatchObject({ changeNote: 'Launch', title: 'Privacy notice', purposes: [expect.objectContaining({ id: email, dataCategories: ['email'] })] });

    const wording = await get(tenant.token, `/api/v1/notices/${v3}/versions/diff?from=1&to=2`);
    expect(wording.body.data).toEqual({
      from: 1,
      to: 2,
      hasMaterialChange: false,
      totalChanges: 1,
      changes: [{ field: 'title', type: 'modified', isMaterial: false, oldValue: 'Privacy notice', newValue: 'Privacy notice, revised' }],
    });
    const material = await get(tenant.token, `/api/v1/notices/${v1}/versions/diff?from=1&to=3`);
    expect(material.body.data).toMatchObject({ hasMaterialChange: true, totalChanges: 2 });

    expect((await get(tenant.token, `/api/v1/notices/${v1}/versions/diff?from=2&to=2`)).status).toBe(400);
    expect((await get(tenant.token, `/api/v1/notices/${v1}/versions/diff?from=3&to=1`)).body.error.fields).toHaveProperty('from');
    expect((await get(tenant.token, `/api/v1/notices/${v1}/versions/diff?from=1`)).body.error.fields).toHaveProperty('to');
    expect((await get(tenant.token, `/api/v1/notices/${v1}/versions/diff?from=1&to=9`)).status).toBe(404);
    expect((await call('POST', `/api/v1/notices/${v3}/revise`, { token: tenant.token })).status).toBe(201);
    const draft = await createNotice(call, tenant.token, [email]);
    expect((await call('POST', `/api/v1/notices/${draft}/revise`, { token: tenant.token })).status).toBe(409);
  });
});

describe('storage failure during publish', () => {
  it('answers 500 and leaves the notice a DRAFT with nothing published', async () => {
    const { failWrites } = await import('./support/storage');
    const tenant = await newTenant(call);
    const purpose = await createPurpose(call, tenant.token);
    const id = await createNotice(call, tenant.token, [purpose]);
    // Let the rate-limit counter (an UpdateCommand) through; fail the publish transaction.
    const { restore } = failWrites({ except: (command) => command === 'UpdateItem' });
    try {
      const response = await publish(call, tenant.token, id);
      expect(response.status).toBe(500);
      expect(response.body.error.code).toBe('INTERNAL_ERROR');
    } finally {
      restore();
    }
    expect((await get(tenant.token, `/api/v1/notices/${id}`)).body.data).toMatchObject({ status: 'DRAFT', versionNumber: null });
    expect((await get(tenant.token, `/api/v1/notices/${id}/versions`)).body.data).toEqual([]);
    expect((await get(tenant.token, '/api/v1/notices/active')).status).toBe(404);
    expect((await publish(call, tenant.token, id)).status).toBe(200);
  });
});
