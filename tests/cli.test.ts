import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loginAs, useApi } from './support/api';

const { call } = useApi();
const exec = promisify(execFile);

/** Runs the real `cms` bin in a child process against this run's DynamoDB Local. */
const cms = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await exec('node', ['shared/cli/bin.mjs', ...args], { env: process.env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

const tag = () => randomUUID().slice(0, 8);

describe('cms CLI', () => {
  it('creates a tenant, users of every role and an API key that work against the API', async () => {
    const adminEmail = `cli-admin-${tag()}@test.example`;
    const created = await cms('tenant', 'create', '--name', `CLI Co ${tag()}`, '--plan', 'collect-only', '--admin-email', adminEmail, '--admin-password', 'correct-horse-battery', '--json');
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.stdout);
    expect(tenant).toMatchObject({ plan: 'collect-only', admin: { email: adminEmail, role: 'SUPER_ADMIN' } });

    for (const role of ['DPO', 'SUPER_ADMIN', 'ANALYST', 'VIEWER']) {
      const email = `cli-${role.toLowerCase()}-${tag()}@test.example`;
      const added = await cms('user', 'add', '--tenant', tenant.tenantId, '--email', email, '--password', 'correct-horse-battery', '--role', role, '--json');
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ email, role, userId: expect.any(String) });
      expect(await loginAs(call, email)).toBeTruthy();
    }

    const key = await cms('apikey', 'create', '--tenant', tenant.tenantId, '--json');
    expect(key.code).toBe(0);
    const { apiKey } = JSON.parse(key.stdout);
    expect((await call('GET', `/api/v1/sdk/verify?apiKey=${apiKey}`)).status).toBe(200);

    const readable = await cms('apikey', 'create', '--tenant', tenant.tenantId);
    expect(readable.stdout).toMatch(/^API key [0-9a-f-]{36} \(publishable\): cms_/);
    const secret = await cms('apikey', 'create', '--tenant', tenant.tenantId, '--kind', 'secret', '--json');
    expect(JSON.parse(secret.stdout)).toMatchObject({ kind: 'secret', apiKey: expect.stringMatching(/^cms_sk_/) });
    expect((await cms('apikey', 'create', '--tenant', tenant.tenantId, '--kind', 'other')).code).toBe(2);

    const tenants = await cms('tenant', 'list', '--json');
    expect(tenants.code).toBe(0);
    expect(JSON.parse(tenants.stdout)).toContainEqual(expect.objectContaining({ tenantId: tenant.tenantId, plan: 'collect-only', userCount: 5 }));
    const users = await cms('user', 'list', '--tenant', tenant.tenantId, '--json');
    expect(users.code).toBe(0);
    const listed = JSON.parse(users.stdout) as Record<string, unknown>[];
    expect(listed.map((user) => user.role).sort()).toEqual(['ANALYST', 'DPO', 'SUPER_ADMIN', 'SUPER_ADMIN', 'VIEWER']);
    expect(users.stdout).not.toContain('passwordHash');
    expect((await cms('user', 'list', '--tenant', randomUUID())).code).toBe(1);
    // Eleven runs of the bin, each a fresh node process compiling the CLI: about 20 s on a quiet
    // 2-core machine, over the default minute at load 16 (a CI run beside other work).
  }, 180_000);

  it('keeps stdout pure JSON when run through npm run -s', async () => {
    const { stdout } = await exec('npm', ['run', '-s', 'cms', '--', 'tenant', 'list', '--json'], { env: process.env });
    expect(Array.isArray(JSON.parse(stdout))).toBe(true);
  });

  it('prints one line and exits 2 on bad arguments', async () => {
    for (const args of [
      ['tenant', 'create', '--name', 'X Co'],
      ['user', 'add', '--tenant', randomUUID(), '--email', 'a@b.example', '--password', 'correct-horse-battery', '--role', 'OWNER'],
      ['tenant', 'create', '--name', 'Y Co', '--admin-email', 'not-an-email', '--admin-password', 'correct-horse-battery'],
      ['tenant', 'create', '--bogus'],
      ['frobnicate'],
    ]) {
      const result = await cms(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits 1 on a conflict such as a duplicate email', async () => {
    const email = `cli-dup-${tag()}@test.example`;
    expect((await cms('tenant', 'create', '--name', `A ${tag()}`, '--admin-email', email, '--admin-password', 'correct-horse-battery')).code).toBe(0);
    const again = await cms('tenant', 'create', '--name', `B ${tag()}`, '--admin-email', email, '--admin-password', 'correct-horse-battery');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });
});
