import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../infra/functions';

/**
 * `npm start` as a newcomer runs it, on a port that is not the default: every URL it prints and
 * every link the service emits must carry the port actually in use.
 */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

let child: ChildProcess | undefined;
let output = '';
let port = 0;
let atFirstAnswer: { banner: boolean; stackFile: boolean } | undefined;
const workDir = mkdtempSync(join(tmpdir(), 'cms-start-'));

beforeAll(async () => {
  port = await freePort();
  // A clean environment (not this run's engines) and its own folder, so a developer's running
  // stack and its .data are never touched.
  child = spawn(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), join(repoRoot, 'infra/local/start.ts')], {
    cwd: workDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), SES_PORT: '0', CMS_IN_MEMORY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = Date.now();
  // What a script polling the port sees at its first answer: that is when it will run `cms`.
  void (async () => {
    while (child!.exitCode === null && Date.now() - started < 90_000) {
      const answered = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then(
        () => true,
        () => false,
      );
      if (answered) {
        const stackFile = existsSync(join(workDir, '.data', 'local-stack.json'));
        // The banner is printed just before the gate opens; its bytes may reach this process a moment after the answer.
        for (let waited = 0; waited < 1000 && !output.includes('Ctrl-C stops everything.'); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        atFirstAnswer = { banner: output.includes('Ctrl-C stops everything.'), stackFile };
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  while (!output.includes('Ctrl-C stops everything.')) {
    if (child.exitCode !== null || Date.now() - started > 90_000) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(workDir, { recursive: true, force: true });
});

const api = async (method: string, path: string, body?: unknown, token?: string) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('npm start', () => {
  it('answers HTTP only once start-up has finished: the banner printed and the file `cms` reads to find the stack written', async () => {
    const deadline = Date.now() + 30_000;
    while (!atFirstAnswer && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(atFirstAnswer).toEqual({ banner: true, stackFile: true });
  });

  it('prints URLs on the port in use and emits withdrawal links on it', async () => {
    expect(output).toContain(`API            http://127.0.0.1:${port}/api/v1`);
    expect(output).toContain(`Dashboard      http://127.0.0.1:${port}/dashboard/   (dpo@demo.example / demo-password-1)`);
    const dashboard = await fetch(`http://127.0.0.1:${port}/dashboard/`);
    expect(dashboard.headers.get('content-type')).toContain('text/html');
    expect(await dashboard.text()).toMatch(/<script type="module" src="\/dashboard\/main-[A-Z0-9]+\.js"><\/script>/);
    expect(output).toContain(`http://127.0.0.1:${port}/api/v1/cmp/config/`);
    const withdrawalPage = output.match(/Withdrawal page\s+(\S+)/)?.[1];
    expect(withdrawalPage).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/portal/t/[a-z0-9-]+$`));
    expect((await fetch(withdrawalPage!)).headers.get('content-type')).toContain('text/html');
    // The seeded demo notice relies on the service's withdrawal page, on this port too.
    const apiKey = output.match(/API key\s+(cms_\S+)/)?.[1];
    const publicNotice = await fetch(`http://127.0.0.1:${port}/api/v1/consent/public-notice?apiKey=${apiKey}`);
    expect(((await publicNotice.json()) as { data: { withdrawalUrl: string } }).data.withdrawalUrl).toBe(withdrawalPage);
    expect(output).not.toMatch(/127\.0\.0\.1:3000\b/);

    const login = await api('POST', '/auth/login', { email: 'dpo@demo.example', password: 'demo-password-1' });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    const purpose = await api('POST', '/purposes', { name: 'Orders', description: 'Order updates', dataCategories: ['email'] }, token);
    const purposeId = purpose.body.data.id as string;
    const notice = await api(
      'POST',
      '/notices',
      {
        title: 'Privacy notice',
        introText: 'What we do with your data.',
        contactEmail: 'dpo@demo.example',
        rightsText: 'You may access, correct and erase your data.',
        complaintText: 'You may complain to the Data Protection Board.',
        purposeIds: [purposeId],
        purposeConfig: [{ purposeId, isRequired: false, displayOrder: 0 }],
      },
      token,
    );
    const noticeId = notice.body.data.id as string;
    expect((await api('POST', `/notices/${noticeId}/publish`, {}, token)).status).toBe(200);
    expect((await api('POST', '/consent/record', { noticeId, dataPrincipalIdentifier: 'asha@example.in', consentGiven: { [purposeId]: true } }, token)).status).toBe(201);
    const link = await api('POST', '/consent/withdrawal-token', { dataPrincipalIdentifier: 'asha@example.in', noticeId }, token);
    expect(link.status).toBe(201);
    expect(link.body.data.portalUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/portal/`));
  });
});

/**
 * Issue 36, item 4: the README's tour is what a fresh `npm start` prints and accepts. The banner
 * it shows is matched line by line against the one printed (ports, ids and keys standing in; this
 * stack keeps its data in memory, where a newcomer's is in .data), and
 * the tour's shell blocks run as a newcomer pastes them, against this stack (its ports put in for
 * the README's 3000 and 3005), from a folder holding the repository's scripts.
 */
describe("the README's tour", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const tour = readme.slice(readme.indexOf('## A ten-minute tour'));
  const shellBlocks = [...tour.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const mailOrigin = () => output.match(/Mail inbox\s+(http:\/\/127\.0\.0\.1:\d+)\//)?.[1];

  it('shows the banner npm start prints, line by line', () => {
    const banner = readme.match(/```\n(Consent service running[\s\S]*?)```/)?.[1];
    expect(banner).toBeDefined();
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const line of banner!.split('\n').filter((entry) => entry.trim())) {
      const pattern = escape(line.trim())
        .replaceAll('127\\.0\\.0\\.1:3000', `127\\.0\\.0\\.1:${port}`)
        .replaceAll('127\\.0\\.0\\.1:3005', escape(mailOrigin()!.replace('http://', '')))
        .replaceAll('NNNNN', '\\d+')
        .replaceAll('data in /path/\\.data', '(?:data in \\S+|in memory)')
        .replaceAll('5f0c…', '[0-9a-f-]+')
        .replaceAll('cms_…', 'cms_\\S+')
        .replaceAll('…', '.*?')
        .replace(/ +/g, '\\s+');
      expect(output, line).toMatch(new RegExp(pattern));
    }
  });

  it('runs its commands as pasted: the notice published, consent recorded and withdrawn, the mails sent, the pack verified with the keys fetched from the service', async () => {
    expect(shellBlocks.length).toBeGreaterThanOrEqual(2);
    const mail = mailOrigin()!;
    const script = shellBlocks.join('\n').replaceAll('http://127.0.0.1:3000', `http://127.0.0.1:${port}`).replaceAll('http://127.0.0.1:3005', mail);
    const folder = mkdtempSync(join(tmpdir(), 'cms-tour-'));
    symlinkSync(join(repoRoot, 'scripts'), join(folder, 'scripts'));
    try {
      const { stdout, stderr, status } = spawnSync('bash', ['-o', 'pipefail', '-c', script], { cwd: folder, env: { PATH: process.env.PATH, HOME: process.env.HOME }, encoding: 'utf8', timeout: 120_000 });
      expect(stderr).toBe('');
      expect(stdout).not.toMatch(/undefined|VALIDATION_ERROR|UNAUTHORIZED|NOT_FOUND/);
      expect(stdout).toContain('PUBLISHED');
      expect(stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/portal/\\S+$`, 'm'));
      expect(stdout).toMatch(/-> asha@example\.in/);
      // The verifier's verdict: VALID, or complete but not yet under a checkpoint (exit 3), never INVALID.
      expect(stdout).toMatch(/^(VALID|COMPLETE BUT NOT YET CHECKPOINTED)\b/m);
      expect([0, 3]).toContain(status);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 150_000);
});
