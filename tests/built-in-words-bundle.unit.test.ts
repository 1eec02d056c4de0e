import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInWordsCopy, esbuildOptionsOf } from '../infra/bundling';
import { repoRoot } from '../infra/functions';

/**
 * A Lambda reads the built-in words from files beside its bundle, not from the bundle: built as a
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
