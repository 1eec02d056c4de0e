import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../shared/http/openapi';
import { bracedPath, type RouteDefinition } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { UpdateCommand } from '../shared/db/commands';
import { db, tableName } from '../shared/db/client';
import { accessPolicy, currentRoleChecked, roles, rolesFor, type Role } from '../shared/roles';
import { userKeys } from '../shared/users/keys';
import { loginAs, newTenant, password, uniqueEmail, useApi } from './support/api';

const { call } = useApi();

const bearerRoutes = routeList.filter((route) => route.auth.kind === 'bearer');
const allowedRoles = (route: RouteDefinition): readonly Role[] => (route.auth.kind === 'bearer' ? rolesFor(route.auth.access) : []);

/** Syntactically valid ids that name nothing, so an allowed call ends in 404/400 and changes nothing that matters. */
const absent: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  keyId: '00000000-0000-4000-8000-000000000001',
  domainId: '00000000-0000-4000-8000-000000000002',
  hash: '0'.repeat(64),
  externalId: 'nobody',
  lang: 'HI',
  language: 'HI',
  revision: '999999',
  scanRunId: '00000000-0000-4000-8000-000000000003',
  userId: '00000000-0000-4000-8000-000000000004',
  breachId: '00000000-0000-4000-8000-000000000005',
  assetId: '00000000-0000-4000-8000-000000000008',
  processorId: '00000000-0000-4000-8000-000000000006',
  requestId: '00000000-0000-4000-8000-000000000007',
};
const concretePath = (path: string) =>
  path.replace(/:([A-Za-z0-9]+)/g, (_match, name: string) => {
    const value = absent[name];
    if (!value) throw new Error(`no test value for path parameter :${name} in ${path}`);
    return value;
  });

beforeAll(() => {
  // Every bearer route × 4 roles from one tenant: above the 100 a minute the bearer limit allows.
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '10000';
});
afterAll(() => {
  delete process.env.RATE_LIMIT_BEARER_PER_MINUTE;
});

const sample = { path: '/api/v1/x', group: 'meta', summary: 's', tags: [], response: { status: 200, description: 'd' } } as const;
/** Checked by tsc (tests are type-checked): the type refuses a bearer route without a level, and a readable write. */
export const refusedByType: RouteDefinition[] = [
  // @ts-expect-error a bearer route must declare its access level
  { ...sample, method: 'GET', auth: { kind: 'bearer' } },
  // @ts-expect-error a non-GET bearer route is write- or admin-level
  { ...sample, method: 'DELETE', auth: { kind: 'bearer', access: 'read' } },
  // @ts-expect-error audit is a read level too
  { ...sample, method: 'POST', auth: { kind: 'bearer', access: 'audit' } },
  { ...sample, method: 'DELETE', auth: { kind: 'bearer', access: 'write' } },
  { ...sample, method: 'DELETE', auth: { kind: 'bearer', access: 'admin' } },
];

/** The team's administration: SUPER_ADMIN only, and nothing else at that level. */
const teamOperations = ['inviteUser', 'listUsers', 'removeUser'];

describe('function-level authorisation', () => {
  it('lets only DPO and SUPER_ADMIN change state (the team: SUPER_ADMIN alone): no non-GET bearer route is open to VIEWER or ANALYST', () => {
    for (const route of bearerRoutes.filter((candidate) => candidate.method !== 'GET')) {
      const expected = teamOperations.includes(route.operationId) ? ['SUPER_ADMIN'] : ['DPO', 'SUPER_ADMIN'];
      expect(allowedRoles(route), `${route.method} ${route.path}`).toEqual(expected);
    }
    for (const route of bearerRoutes) expect(allowedRoles(route), `${route.method} ${route.path}`).toContain('SUPER_ADMIN');
    for (const route of bearerRoutes) expect(Object.keys(accessPolicy), route.path).toContain(route.auth.kind === 'bearer' && route.auth.access);
  });

  it('lets only SUPER_ADMIN list, invite and remove users, and keeps that level to those routes', () => {
    const adminOnly = bearerRoutes.filter((route) => allowedRoles(route).length === 1).map((route) => route.operationId);
    expect(adminOnly.sort()).toEqual(teamOperations);
    for (const operationId of teamOperations) {
      const route = bearerRoutes.find((candidate) => candidate.operationId === operationId);
      expect(route && allowedRoles(route), operationId).toEqual(['SUPER_ADMIN']);
    }
  });

  it('lets every role read the retention settings, the Third Schedule, the upcoming erasures, the summary and the erasure tasks, and only DPO and SUPER_ADMIN change the settings or resolve an asset', () => {
    for (const operationId of ['getRetentionSettings', 'getThirdSchedule', 'listRetentionUpcoming', 'getRetentionSummary', 'listRetentionErasures', 'getRetentionErasure']) {
      const route = bearerRoutes.find((candidate) => candidate.operationId === operationId);
      expect(route && allowedRoles(route), operationId).toEqual(roles);
    }
    for (const operationId of ['saveRetentionSettings', 'resolveRetentionErasureAsset']) {
      const route = bearerRoutes.find((candidate) => candidate.operationId === operationId);
      expect(route && allowedRoles(route), operationId).toEqual(['DPO', 'SUPER_ADMIN']);
    }
  });

  it('lets ANALYST and VIEWER read analytics and webhook delivery history', () => {
    for (const operationId of ['consentAnalytics', 'getCmpAnalytics', 'listWebhookDeliveries']) {
      const route = bearerRoutes.find((candidate) => candidate.operationId === operationId);
      expect(route && allowedRoles(route), operationId).toEqual(roles);
    }
  });

  it('states each bearer operation\'s roles in its OpenAPI description, from the same data', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { description: string }>>;
    for (const route of bearerRoutes) {
      const operation = paths[bracedPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation?.description, route.operationId).toMatch(new RegExp(`Roles: ${allowedRoles(route).join(', ')}\\.$`));
      if (route.auth.kind === 'bearer' && route.auth.narrowsSpec) expect(operation?.description, route.operationId).toContain('The spec allows any role here');
    }
    const narrowed = bearerRoutes.filter((route) => route.auth.kind === 'bearer' && route.auth.narrowsSpec).map((route) => route.operationId);
    for (const operationId of ['updateWebhook', 'deleteWebhook', 'testWebhook', 'archiveNotice', 'setNoticeWithdrawalUrl', 'autoTranslateNotice']) {
      expect(narrowed).toContain(operationId);
    }
  });

  it('answers every bearer route × role as the route table says, through the real server', async () => {
    const tenant = await newTenant(call);
    const tokens = Object.fromEntries(await Promise.all(roles.map(async (role) => [role, await tenant.userToken(role)] as const))) as Record<Role, string>;
    const mismatches: string[] = [];
    for (const route of bearerRoutes) {
      const path = concretePath(route.path);
      for (const role of roles) {
        const response = await call(route.method, path, { token: tokens[role], ...(route.method === 'GET' ? {} : { body: {} }) });
        const allowed = allowedRoles(route).includes(role);
        const passed = response.status !== 401 && response.status !== 403;
        if (allowed !== passed || (!allowed && response.body?.error?.code !== 'FORBIDDEN')) {
          mismatches.push(`${role} ${route.method} ${route.path}: ${response.status} ${JSON.stringify(response.body?.error ?? '')}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('answers every state-changing and team route by the team as it is now: 401 TOKEN_INVALID once removed, 403 once lowered', async () => {
    const tenant = await newTenant(call);
    const join = async () => {
      const email = uniqueEmail('admin');
      const invited = await call('POST', '/api/v1/users', { token: tenant.token, body: { email, role: 'SUPER_ADMIN', password } });
      expect(invited.status).toBe(201);
      return { userId: invited.body.data.userId as string, token: await loginAs(call, email) };
    };
    const removed = await join();
    const lowered = await join();
    expect((await call('DELETE', `/api/v1/users/${removed.userId}`, { token: tenant.token })).status).toBe(200);
    // No endpoint changes a role; the store is the truth the check reads.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: userKeys.user(tenant.tenantId, lowered.userId), UpdateExpression: 'SET #role = :viewer', ExpressionAttributeNames: { '#role': 'role' }, ExpressionAttributeValues: { ':viewer': 'VIEWER' } }),
    );
    const checked = bearerRoutes.filter((route) => route.auth.kind === 'bearer' && currentRoleChecked(route.auth.access));
    expect(checked.map((route) => route.operationId)).toEqual(expect.arrayContaining(['inviteUser', 'removeUser', 'listUsers', 'createApiKey', 'createWebhook', 'updateWebhook']));
    // Reads: the team's list, and every audit-level read (the bulk evidence reads and audit trails).
    expect(checked.filter((route) => route.method === 'GET').map((route) => route.operationId).sort()).toEqual(['exportConsentRecords', 'listConsentSettingsChanges', 'listNoticeAudit', 'listUsers', 'verifyProofChain']);
    const mismatches: string[] = [];
    for (const route of checked) {
      const path = concretePath(route.path);
      const options = route.method === 'GET' ? {} : { body: {} };
      const asRemoved = await call(route.method, path, { token: removed.token, ...options });
      if (asRemoved.status !== 401 || asRemoved.body?.error?.code !== 'TOKEN_INVALID') mismatches.push(`removed ${route.method} ${route.path}: ${asRemoved.status}`);
      const asLowered = await call(route.method, path, { token: lowered.token, ...options });
      if (asLowered.status !== 403 || asLowered.body?.error?.code !== 'FORBIDDEN') mismatches.push(`lowered ${route.method} ${route.path}: ${asLowered.status}`);
    }
    expect(mismatches).toEqual([]);
    // What the review found: the removed SUPER_ADMIN made a new SUPER_ADMIN and an API key.
    const team = (await call('GET', '/api/v1/users', { token: tenant.token })).body.data as { userId: string }[];
    expect(team.map((user) => user.userId)).not.toContain(removed.userId);
    expect(team).toHaveLength(2);
    expect((await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data).toEqual([]);
  });

  it('refuses every bulk evidence read to a removed SUPER_ADMIN and a demoted DPO whose tokens are still valid', async () => {
    const tenant = await newTenant(call);
    const member = async (role: Role) => {
      const email = uniqueEmail(role.toLowerCase());
      const invited = await call('POST', '/api/v1/users', { token: tenant.token, body: { email, role, password } });
      expect(invited.status).toBe(201);
      return { userId: invited.body.data.userId as string, token: await loginAs(call, email) };
    };
    const removed = await member('SUPER_ADMIN');
    const demoted = await member('DPO');
    const reads = [
      ['GET', '/api/v1/consent/records/export?format=csv'],
      ['GET', '/api/v1/consent/records/export?format=jsonl'],
      ['POST', '/api/v1/consent/evidence-packs'],
      ['GET', '/api/v1/consent/proof-chain/verify'],
      ['GET', `/api/v1/notices/${absent.id}/audit`],
    ] as const;
    const body = { principalHash: '0'.repeat(64) };
    // While both are on the team with their roles, the reads answer (a pack of nobody: 404).
    for (const [method, path] of reads) {
      for (const user of [removed, demoted]) expect([401, 403], path).not.toContain((await call(method, path, { token: user.token, ...(method === 'POST' ? { body } : {}) })).status);
    }
    expect((await call('DELETE', `/api/v1/users/${removed.userId}`, { token: tenant.token })).status).toBe(200);
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: userKeys.user(tenant.tenantId, demoted.userId), UpdateExpression: 'SET #role = :analyst', ExpressionAttributeNames: { '#role': 'role' }, ExpressionAttributeValues: { ':analyst': 'ANALYST' } }),
    );
    for (const [method, path] of reads) {
      const options = method === 'POST' ? { body } : {};
      expect(await call(method, path, { token: removed.token, ...options }), `removed ${path}`).toMatchObject({ status: 401, body: { error: { code: 'TOKEN_INVALID' } } });
      expect(await call(method, path, { token: demoted.token, ...options }), `demoted ${path}`).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    }
  });

  it('accepts the Bearer scheme in any case (RFC 9110)', async () => {
    const tenant = await newTenant(call);
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      const response = await call('GET', '/api/v1/notices', { headers: { authorization: `${scheme} ${tenant.token}` } });
      expect(response.status, scheme).toBe(200);
    }
    expect((await call('GET', '/api/v1/notices', { headers: { authorization: `Basic ${tenant.token}` } })).status).toBe(401);
    expect((await call('GET', '/api/v1/notices', { headers: { authorization: `bearer` } })).status).toBe(401);
  });
});
