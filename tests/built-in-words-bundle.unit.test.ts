import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInWordsCopy, esbuildOptionsOf } from '../infra/bundling';
import { repoRoot } from '../infra/functions';
import { mapBundleStackTraces } from '../shared/stack-traces';

/**
 * Deployed bundles, built as a deploy builds them. A Lambda reads the built-in words from files beside its bundle, not from the bundle: built as a
 * deploy builds it (the CDK's esbuild options, then the bundling's afterBundling commands), a
 * bundle reading Tamil finds Tamil, and carries none of the words itself.
 */
const outRoot = mkdtempSync(join(tmpdir(), 'cms-built-in-words-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

describe('the built-in words in a deployed bundle', () => {
  it('are read from built-in/ beside index.mjs, and are not in the bundle', async () => {
    const entry = join(outRoot, 'entry.ts');
    writeFileSync(entry, `import { readBuiltIn } from ${JSON.stringify(join(repoRoot, 'shared/words/built-in-words.ts'))};\nexport const tamil = () => readBuiltIn('TA');\n`);
    const outdir = join(outRoot, 'out');
    const options = esbuildOptionsOf(entry, outdir);
    await build({ ...options, absWorkingDir: repoRoot, logLevel: 'silent' });
    const bundleBytes = statSync(options.outfile!).size;
    // The loader alone: a few hundred bytes, where one language's words would be tens of KB.
    expect(bundleBytes).toBeLessThan(4_000);
    for (const command of builtInWordsCopy(repoRoot, outdir)) execFileSync('sh', ['-c', command]);
    const bundle = (await import(pathToFileURL(options.outfile!).href)) as { tamil: () => Promise<{ language: string; words: Record<string, string> } | undefined> };
    const tamil = await bundle.tamil();
    expect(tamil?.language).toBe('TA');
    expect(tamil?.words.acceptAll).toBe('அனைத்தையும் ஏற்கவும்');
  });
});

describe('stack traces of a deployed bundle', () => {
  /** A bundle built as a deploy builds it, whose module throws at line 3 of entry.ts and prints the stack; run in a fresh node (the hook is process-wide). */
  const stackOf = async (nodeOptions: string[], withoutMap = false) => {
    const dir = mkdtempSync(join(outRoot, 'stack-'));
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, `import { log } from ${JSON.stringify(join(repoRoot, 'shared/log.ts'))};\nexport const fail = (): never => {\n  throw new Error('mapped?');\n};\ntry { fail(); } catch (error) { log.info('caught'); console.log((error as Error).stack); }\n`);
    const options = esbuildOptionsOf(entry, join(dir, 'out'));
    await build({ ...options, absWorkingDir: repoRoot, logLevel: 'silent' });
    if (withoutMap) renameSync(`${options.outfile!}.map`, `${options.outfile!}.map.gone`);
    return execFileSync(process.execPath, [...nodeOptions, options.outfile!], { encoding: 'utf8', env: { PATH: process.env.PATH, CMS_LOG_SILENT: '1' } });
  };

  it('name the TypeScript source without --enable-source-maps (the map read on demand), as with it; unmapped where no map is beside the bundle', async () => {
    const mapped = await stackOf([]);
    expect(mapped).toMatch(/^Error: mapped\?\n/);
    expect(mapped).toMatch(/entry\.ts:3:\d+\)/);
    expect(mapped).not.toMatch(/index\.mjs:\d+:\d+/);
    // Node's own source maps, when an operator turns them on, are left to do it.
    expect(await stackOf(['--enable-source-maps'])).toMatch(/entry\.ts:3:\d+\)/);
    const unmapped = await stackOf([], true);
    expect(unmapped).toMatch(/^Error: mapped\?\n/);
    expect(unmapped).toMatch(/index\.mjs:\d+:\d+/);
    expect(unmapped).not.toMatch(/entry\.ts/);
  });

  it('are left alone when running from source', () => {
    expect(mapBundleStackTraces()).toBe(false);
    expect(mapBundleStackTraces('file:///var/task/shared/log.ts')).toBe(false);
  });
});
