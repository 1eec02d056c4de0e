import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion, type Metafile } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';
import { repoRoot } from '../../infra/functions';
import { bundledFunctionNames } from '../../infra/local/bundles';
import { functionGroups, routeKeyOf, type FunctionGroup } from '../../shared/http/route';
import { routeList } from '../../shared/http/routes';
import type { DeployedFunction } from '../deployment';
import { median } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { promisify } from 'node:util';
import { signAccessToken } from '../../shared/auth/access-token-signer';
import { tokenKeyName } from '../../shared/auth/jwt';
import { jwks, localSigner } from '../../shared/evidence/signer';

/**
 * Cold starts measured, not kilobytes: every deployed function built with the CDK stack's esbuild
 * settings (infra/bundling.ts); its cold path is the CPU time (user + system, from the process's
 * start) of a fresh node process that imports the bundle and runs its handler once, up to and
 * including its first signed DynamoDB call, answered by a fake DynamoDB on loopback. Beside them, a
 * reference handler that makes the same call with the bundled SDK and nothing else. Targets: every
 * HTTP function at most 1.5× the reference; guard: every bundle at most 600 KB minified.
 */
export const coldStartTarget = 1.5;
export const bundleGuardBytes = 600 * 1024;

export interface ColdStart {
  name: string;
  bytes: number;
  /** Median CPU ms of a fresh process: node's start, the import, the handler's first DynamoDB call. */
  cpuMs: number;
  ratio: number;
  /** Median wall ms of the same, for reading beside the CPU. */
  wallMs: number;
  /** HTTP functions are held to the target; the stream, queue and scheduled ones are reported. */
  http: boolean;
  /** What the handler was given, and DynamoDB calls it made (median). */
  invokedWith: string;
  dynamoCalls: number;
  largestPackages: { name: string; bytes: number }[];
}

export interface BundlesResult {
  esbuild: string;
  node: string;
  runs: number;
  nodeOptions: string;
  coldStart: { reference: { cpuMs: number; wallMs: number; bytes: number }; functions: ColdStart[] };
}

const referenceName = 'reference (SDK DynamoDB document client only)';

/** `node_modules/@aws-sdk/client-dynamodb/dist-es/x.js` → `@aws-sdk/client-dynamodb`; project files by top folder. */
const packageOf = (input: string): string => {
  const inside = input.split('node_modules/').at(-1)!;
  if (inside === input) return `(project) ${input.split('/')[0]}/`;
  const parts = inside.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
};

const largestPackages = (metafile: Metafile) => {
  const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(output.inputs)) byPackage.set(packageOf(path), (byPackage.get(packageOf(path)) ?? 0) + input.bytesInOutput);
  return [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes).slice(0, 5);
};

/** A fake DynamoDB on loopback: counts signed calls and answers each with an empty result of its operation. */
const startFakeDynamoDb = async (): Promise<{ server: Server; url: string; calls: () => number; reset: () => void }> => {
  let calls = 0;
  const empty: Record<string, unknown> = { Query: { Items: [], Count: 0, ScannedCount: 0 }, BatchGetItem: { Responses: {}, UnprocessedKeys: {} }, TransactGetItems: { Responses: [] } };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) calls += 1;
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(empty[operation] ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, reset: () => (calls = 0) };
};

/**
 * What each HTTP function is invoked with: a route of its group, preferring one an API key opens
 * (a key the fake table does not hold: the lookup is the first DynamoDB call), then a bearer route
 * (a valid token signed with the local key file, verified with its public half given as the stack gives it: verification, then the caller's rate limit), then a
 * rate-limited public one, else any (meta serves documents and never calls DynamoDB). Workers get
 * their schedule's or queue's empty event.
 */
const eventOf = (group: FunctionGroup, token: string): { event: unknown; label: string } => {
  const routes = routeList.filter((route) => route.group === group);
  const route =
    routes.find((candidate) => candidate.auth.kind === 'apiKey') ??
    routes.find((candidate) => candidate.auth.kind === 'bearer') ??
    // A public route with a rate limit counts the caller first (an UpdateItem).
    routes.find((candidate) => (candidate.limits ?? []).length > 0) ??
    routes[0]!;
  const path = route.path.replace(/:(\w+)/g, 'x');
  const auth = route.auth;
  const apiKey = `cms_${'0'.repeat(32)}_${'A'.repeat(43)}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: 'http://localhost' };
  let body: Record<string, unknown> | undefined;
  if (auth.kind === 'bearer') headers.authorization = `Bearer ${token}`;
  if (auth.kind === 'apiKey') {
    if (auth.in === 'header') headers['x-api-key'] = apiKey;
    if (auth.in === 'body') body = { apiKey };
  }
  const query = auth.kind === 'apiKey' && auth.in === 'query' ? { apiKey } : undefined;
  return {
    label: `${routeKeyOf(route)} (${auth.kind})`,
    event: {
      version: '2.0',
      routeKey: routeKeyOf(route),
      rawPath: path,
      rawQueryString: query ? `apiKey=${apiKey}` : '',
      headers,
      ...(query ? { queryStringParameters: query } : {}),
      ...(body ? { body: JSON.stringify(body) } : {}),
      isBase64Encoded: false,
      requestContext: { accountId: 'bench', apiId: 'bench', domainName: 'localhost', domainPrefix: 'bench', requestId: 'cold', routeKey: routeKeyOf(route), stage: '$default', time: new Date().toISOString(), timeEpoch: Date.now(), http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'bench' } },
    },
  };
};

const workerEvents: Record<string, { event: unknown; label: string }> = {
  stream: { event: { Records: [] }, label: 'an empty stream batch (no DynamoDB call)' },
  'webhook-worker': { event: { Records: [] }, label: 'an empty SQS batch (no DynamoDB call)' },
  'breach-worker': { event: { Records: [] }, label: 'an empty SQS batch (no DynamoDB call)' },
};

const run = promisify(execFile);

/** One fresh process: CPU and wall time from its start to the handler's return, and the signed DynamoDB calls meanwhile. */
const coldRun = async (file: string, event: unknown, environment: Record<string, string>, fake: { calls: () => number; reset: () => void }) => {
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
try { await handler(${JSON.stringify(event)}, { awsRequestId: 'cold', getRemainingTimeInMillis: () => 15000 }); } catch {}
const { user, system } = process.cpuUsage();
process.stdout.write('\\n' + JSON.stringify({ cpuMs: (user + system) / 1000, wallMs: performance.now() }));
process.exit(0);`;
  fake.reset();
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: environment, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  const measured = JSON.parse(stdout.trim().split('\n').at(-1)!) as { cpuMs: number; wallMs: number };
  return { ...measured, dynamoCalls: fake.calls() };
};

/**
 * Builds every deployed function and the reference, then runs each in fresh processes, round-robin
 * (so a noisy moment of the machine does not land on one function), against the fake DynamoDB.
 * `names`: the functions measured beside the reference (all, unless `--functions a,b` narrows a
 * run for work on one figure).
 */
export const measureBundles = async (functions: Map<string, DeployedFunction>, settings: Settings, names: readonly string[] = bundledFunctionNames): Promise<BundlesResult> => {
  const outRoot = mkdtempSync(join(tmpdir(), 'cms-bench-bundles-'));
  const fake = await startFakeDynamoDb();
  const keyFile = join(outRoot, 'keys', 'token-signing.pem');
  const saved = { TOKEN_SIGNING_KEY: process.env.TOKEN_SIGNING_KEY, TOKEN_VERIFY_KEYS: process.env.TOKEN_VERIFY_KEYS };
  try {
    Object.assign(process.env, { TOKEN_SIGNING_KEY: keyFile, TOKEN_VERIFY_KEYS: keyFile });
    const token = await signAccessToken({ tenantId: 'bench-tenant', userId: 'bench-user', role: 'SUPER_ADMIN' });
    // As the stack gives them (infra/token-keys.ts): the token key's public half, read at deploy.
    const tokenPublicKeys = JSON.stringify(jwks([await localSigner(keyFile, tokenKeyName)]));
    const nodeOptions = functions.get('consent-public')?.nodeOptions ?? '';
    // What Lambda gives a function (its role's credentials, the region) and the stack's variables that
    // matter here: the token key's public half as a JWKS, as in AWS; the local stage for auth's key file.
    const environment = (name: string): Record<string, string> => ({
      PATH: process.env.PATH ?? '',
      NODE_OPTIONS: functions.get(name)?.nodeOptions ?? nodeOptions,
      AWS_REGION: 'ap-south-1',
      AWS_ACCESS_KEY_ID: 'AKIDBENCH',
      AWS_SECRET_ACCESS_KEY: 'bench-secret',
      AWS_SESSION_TOKEN: 'bench-session',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      CMS_STAGE: 'local',
      CMS_LOG_SILENT: '1',
      CMS_FUNCTION_TIMEOUT_SECONDS: '15',
      CMS_KEY_DIR: join(outRoot, 'keys'),
      TOKEN_SIGNING_KEY: keyFile,
      TOKEN_PUBLIC_KEYS: tokenPublicKeys,
      DYNAMODB_ENDPOINT: fake.url,
      TABLE_NAME: 'consent-service-bench',
    });
    const entries: { name: string; entry: string; http: boolean; invoke: { event: unknown; label: string } }[] = [
      { name: referenceName, entry: fileURLToPath(new URL('../baseline/dynamodb-only.ts', import.meta.url)), http: false, invoke: { event: {}, label: 'one GetItem' } },
      ...bundledFunctionNames.filter((name) => names.includes(name)).map((name) => {
        const http = (functionGroups as readonly string[]).includes(name);
        return { name, entry: join(repoRoot, 'functions', name, 'handler.ts'), http, invoke: http ? eventOf(name as FunctionGroup, token) : (workerEvents[name] ?? { event: {}, label: 'its schedule (no event)' }) };
      }),
    ];
    type Built = (typeof entries)[number] & { file: string; bytes: number; largestPackages: { name: string; bytes: number }[]; runs: Awaited<ReturnType<typeof coldRun>>[] };
    const built: Built[] = [];
    for (const entry of entries) {
      const options = esbuildOptionsOf(entry.entry, join(outRoot, entry.name.replace(/\W+/g, '-')));
      const { metafile } = await build({ ...options, absWorkingDir: repoRoot, metafile: true, logLevel: 'silent' });
      built.push({ ...entry, file: options.outfile!, bytes: statSync(options.outfile!).size, largestPackages: largestPackages(metafile), runs: [] });
    }
    for (let round = 0; round < settings.importRuns; round += 1) {
      for (const bundle of built) bundle.runs.push(await coldRun(bundle.file, bundle.invoke.event, environment(bundle.name), fake));
    }
    const summary = (bundle: Built) => ({ cpuMs: median(bundle.runs.map((one) => one.cpuMs)), wallMs: median(bundle.runs.map((one) => one.wallMs)), dynamoCalls: median(bundle.runs.map((one) => one.dynamoCalls)) });
    const [reference, ...deployed] = built;
    const referenceRun = summary(reference!);
    const coldStarts: ColdStart[] = deployed.map((bundle) => {
      const measured = summary(bundle);
      return { name: bundle.name, bytes: bundle.bytes, cpuMs: measured.cpuMs, ratio: measured.cpuMs / referenceRun.cpuMs, wallMs: measured.wallMs, http: bundle.http, invokedWith: bundle.invoke.label, dynamoCalls: measured.dynamoCalls, largestPackages: bundle.largestPackages };
    });
    const kb = (bytes: number) => bytes / 1024;
    printTable(
      `7a. Cold path of every deployed function (esbuild ${esbuildVersion}, infra/bundling.ts; node ${process.version}, ${nodeOptions || 'no NODE_OPTIONS'}): CPU ms of a fresh process from its start through the handler's first signed DynamoDB call to a loopback fake, median of ${settings.importRuns}`,
      ['function', 'KB', 'CPU ms', `× reference (target ≤ ${coldStartTarget} for HTTP)`, 'wall ms', 'DynamoDB calls', 'invoked with'],
      [
        [referenceName, kb(reference!.bytes), referenceRun.cpuMs, '1.00×', referenceRun.wallMs, referenceRun.dynamoCalls, reference!.invoke.label],
        ...coldStarts.map((cold) => [
          `${cold.name}${cold.http ? '' : ' (worker)'}`,
          kb(cold.bytes),
          cold.cpuMs,
          `${cold.ratio.toFixed(2)}×${cold.http && cold.ratio > coldStartTarget ? ' OVER' : ''}`,
          cold.wallMs,
          cold.dynamoCalls,
          cold.invokedWith,
        ]),
      ],
      [`Guard: every bundle ≤ ${bundleGuardBytes / 1024} KB minified; over it: ${coldStarts.filter((cold) => cold.bytes > bundleGuardBytes).map((cold) => cold.name).join(', ') || 'none'}.`, 'Lambda runs Node 22 on arm64; these are local timings of the same files, read as ratios.'],
    );
    printTable(
      '7b. Five largest packages of each bundle (KB in the minified output)',
      ['bundle', 'packages'],
      built.map((bundle) => [bundle.name, bundle.largestPackages.map((entry) => `${entry.name} ${kb(entry.bytes).toFixed(0)}`).join(', ')]),
    );
    return {
      esbuild: esbuildVersion,
      node: process.version,
      runs: settings.importRuns,
      nodeOptions,
      coldStart: { reference: { cpuMs: referenceRun.cpuMs, wallMs: referenceRun.wallMs, bytes: reference!.bytes }, functions: coldStarts },
    };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
    rmSync(outRoot, { recursive: true, force: true });
  }
};
