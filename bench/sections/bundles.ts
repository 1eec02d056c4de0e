import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion, type Metafile } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';
import { repoRoot } from '../../infra/functions';
import { functionGroups } from '../../shared/http/route';
import type { DeployedFunction } from '../deployment';
import { median } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

export interface Bundle {
  name: string;
  bytes: number;
  mapBytes: number;
  /** Median ms to import the bundle in a fresh node process, with the function's NODE_OPTIONS. */
  importMs: number;
  /** The same without NODE_OPTIONS (so without --enable-source-maps). */
  importMsWithoutNodeOptions?: number;
  /** Median wall time of the whole process: node's start, the import, exit. */
  processMs: number;
  sizeRatio: number;
  importRatio: number;
  largestInputs: { path: string; bytes: number }[];
  largestPackages: { name: string; bytes: number }[];
}

export interface BundlesResult {
  esbuild: string;
  node: string;
  importRuns: number;
  bareImportRuns: number;
  baseline: string;
  bundles: Bundle[];
}

const baselineName = 'dynamodb-only (baseline)';

/** `node_modules/@aws-sdk/client-dynamodb/dist-es/x.js` → `@aws-sdk/client-dynamodb`; project files by top folder. */
const packageOf = (input: string): string => {
  const inside = input.split('node_modules/').at(-1)!;
  if (inside === input) return `(project) ${input.split('/')[0]}/`;
  const parts = inside.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
};

const largest = <T extends { bytes: number }>(entries: T[], count: number) => entries.sort((a, b) => b.bytes - a.bytes).slice(0, count);

const explain = (metafile: Metafile) => {
  const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
  const inputs = Object.entries(output.inputs).map(([path, input]) => ({ path, bytes: input.bytesInOutput }));
  const byPackage = new Map<string, number>();
  for (const input of inputs) byPackage.set(packageOf(input.path), (byPackage.get(packageOf(input.path)) ?? 0) + input.bytes);
  return {
    largestInputs: largest(inputs, 5),
    largestPackages: largest([...byPackage].map(([name, bytes]) => ({ name, bytes })), 5),
  };
};

/** One fresh node process importing the bundle; the time of the import alone and of the whole process. */
const timeImport = (file: string, nodeOptions: string) => {
  const script = `const started = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - started));`;
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: nodeOptions }, encoding: 'utf8' });
  const processMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`importing ${file} failed: ${child.stderr}`);
  return { importMs: Number(child.stdout), processMs };
};

/**
 * Builds every Lambda with the CDK stack's esbuild settings (infra/bundling.ts), then imports each
 * bundle in fresh node processes, as a cold start does, next to a bundle of the DynamoDB client alone.
 */
export const measureBundles = async (functions: Map<string, DeployedFunction>, settings: Settings): Promise<BundlesResult> => {
  const entries: [string, string][] = [
    ...[...functionGroups, 'stream', 'webhook-worker'].map((name): [string, string] => [name, join(repoRoot, 'functions', name, 'handler.ts')]),
    [baselineName, fileURLToPath(new URL('../baseline/dynamodb-only.ts', import.meta.url))],
  ];
  // The baseline loads the way the service's functions do.
  const nodeOptionsOf = (name: string) => (functions.get(name) ?? functions.get('consent-public'))?.nodeOptions ?? '';
  const outRoot = mkdtempSync(join(tmpdir(), 'cms-bench-bundles-'));
  try {
    const built = [];
    for (const [name, entry] of entries) {
      const options = esbuildOptionsOf(entry, join(outRoot, name.replace(/\W+/g, '-')));
      const { metafile } = await build({ ...options, absWorkingDir: repoRoot, metafile: true, logLevel: 'silent' });
      const file = options.outfile!;
      built.push({ name, file, bytes: statSync(file).size, mapBytes: statSync(`${file}.map`).size, ...explain(metafile), runs: { deployed: [] as number[], bare: [] as number[], process: [] as number[] } });
    }
    // Round-robin over the bundles, so a noisy moment of the machine does not land on one bundle.
    for (let run = 0; run < settings.importRuns; run += 1) {
      for (const bundle of built) {
        const deployed = timeImport(bundle.file, nodeOptionsOf(bundle.name));
        bundle.runs.deployed.push(deployed.importMs);
        bundle.runs.process.push(deployed.processMs);
        if (run < settings.bareImportRuns) bundle.runs.bare.push(timeImport(bundle.file, '').importMs);
      }
    }
    const baseline = built.find((bundle) => bundle.name === baselineName)!;
    const bundles: Bundle[] = built.map(({ runs, file: _file, ...bundle }) => ({
      ...bundle,
      importMs: median(runs.deployed),
      ...(runs.bare.length > 0 ? { importMsWithoutNodeOptions: median(runs.bare) } : {}),
      processMs: median(runs.process),
      sizeRatio: bundle.bytes / baseline.bytes,
      importRatio: median(runs.deployed) / median(baseline.runs.deployed),
    }));
    const kb = (bytes: number) => bytes / 1024;
    const nodeOptions = nodeOptionsOf('consent-public');
    const bare = settings.bareImportRuns > 0;
    printTable(
      `7a. Bundles (esbuild ${esbuildVersion}, the CDK settings of infra/bundling.ts) and import time in a fresh node ${process.version} process (median of ${settings.importRuns})`,
      ['bundle', 'KB', 'map KB', 'size ×', `import ms (${nodeOptions || 'no NODE_OPTIONS'})`, 'import ×', 'process ms', ...(bare ? [`import ms, no NODE_OPTIONS (${settings.bareImportRuns} runs)`] : [])],
      bundles.map((bundle) => [
        bundle.name,
        kb(bundle.bytes),
        kb(bundle.mapBytes),
        `${bundle.sizeRatio.toFixed(2)}×`,
        bundle.importMs,
        `${bundle.importRatio.toFixed(2)}×`,
        bundle.processMs,
        ...(bare ? [bundle.importMsWithoutNodeOptions] : []),
      ]),
      ['Lambda runs Node 22 on arm64; these are local timings of the same files, for comparing bundles with each other.'],
    );
    printTable(
      '7b. Five largest inputs of each bundle (KB in the minified output)',
      ['bundle', 'inputs'],
      bundles.map((bundle) => [bundle.name, bundle.largestInputs.map((input) => `${input.path.replace(/^node_modules\//, '')} ${kb(input.bytes).toFixed(0)}`).join(', ')]),
    );
    printTable(
      '7c. Five largest packages of each bundle (KB in the minified output)',
      ['bundle', 'packages'],
      bundles.map((bundle) => [bundle.name, bundle.largestPackages.map((entry) => `${entry.name} ${kb(entry.bytes).toFixed(0)}`).join(', ')]),
    );
    return { esbuild: esbuildVersion, node: process.version, importRuns: settings.importRuns, bareImportRuns: settings.bareImportRuns, baseline: baselineName, bundles };
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
};
