/**
 * One or more HTTP groups built with the CDK settings (infra/bundling.ts), without the bench's import
 * timings: each bundle's size and its largest inputs, for working on bundle size.
 * `npx tsx bench/bundle-size.ts [group ...] [--top N] [--match text]`
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptionsOf } from '../infra/bundling';
import { repoRoot } from '../infra/functions';
import { functionGroups } from '../shared/http/route';

const args = process.argv.slice(2);
const optionOf = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const top = Number(optionOf('--top') ?? 8);
const match = optionOf('--match');
const groups = args.length > 0 ? args : [...functionGroups];
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const outRoot = mkdtempSync(join(tmpdir(), 'cms-bundle-size-'));
try {
  for (const group of groups) {
    const options = esbuildOptionsOf(join(repoRoot, 'functions', group, 'handler.ts'), join(outRoot, group));
    const { metafile } = await build({ ...options, absWorkingDir: repoRoot, metafile: true, logLevel: 'silent' });
    const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
    const inputs = Object.entries(output.inputs)
      .map(([path, input]) => ({ path, bytes: input.bytesInOutput }))
      .filter((input) => match === undefined || input.path.includes(match))
      .sort((a, b) => b.bytes - a.bytes);
    const shown = inputs.slice(0, top).map((input) => `${input.path.replace(/^node_modules\//, '')} ${kb(input.bytes)}`);
    const matched = match === undefined ? '' : ` (${match}: ${kb(inputs.reduce((sum, input) => sum + input.bytes, 0))} KB)`;
    console.log(`${group} ${kb(statSync(options.outfile!).size)} KB${matched}\n  ${shown.join('\n  ')}`);
  }
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}
