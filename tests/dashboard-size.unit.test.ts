import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildWebApp, initialFilesOf } from '../web/build';

/** What the first visit loads (index.html's script and stylesheet, and the chunks they import), gzipped. */
const budgetBytes = 20 * 1024;

describe('dashboard size budget', () => {
  const files = buildWebApp('dashboard');
  const gzipped = (path: string) => gzipSync(files.get(path)!.contents, { level: 9 }).length;

  it(`loads at most ${budgetBytes} bytes of gzipped JS and CSS first, and each screen as its own chunk`, () => {
    const initial = initialFilesOf(files);
    expect(initial.some((path) => path.endsWith('.css'))).toBe(true);
    expect(initial.some((path) => path.endsWith('.js'))).toBe(true);
    const total = initial.reduce((sum, path) => sum + gzipped(path), 0);
    // Every chunk named after its screen's file (esbuild names the code screens share `chunk-…`).
    const screens = [...files.keys()].filter((path) => /^chunks\/(?!chunk-)[a-z-]+-[A-Z0-9]{8}\.js$/.test(path));
    console.log(`dashboard initial load: ${initial.join(', ')}: ${total} bytes gzipped (budget ${budgetBytes})`);
    for (const path of screens) console.log(`  on demand ${path}: ${gzipped(path)} bytes gzipped`);
    expect(total).toBeLessThanOrEqual(budgetBytes);
    // Every screen is loaded on demand, none is part of the first load.
    for (const name of ['overview', 'records', 'record', 'withdrawals', 'api-keys', 'notices', 'notice', 'notice-versions', 'notice-translations', 'breaches', 'breach', 'rights', 'rights-request', 'data-map', 'words']) {
      expect(screens.some((path) => path.startsWith(`chunks/${name}-`))).toBe(true);
    }
    for (const path of screens) expect(initial).not.toContain(path);
  });

  it('has no eval, no inline script and no zod or server code in the bundle', () => {
    const source = [...files].filter(([path]) => path.endsWith('.js')).map(([, file]) => Buffer.from(file.contents).toString('utf8')).join('\n');
    expect(source).not.toMatch(/\beval\(|new Function\(/);
    // zod's runtime would show its error-map texts; the API types are type-only imports.
    expect(source).not.toMatch(/ZodError|\$ZodType|dynamodb/i);
    const html = Buffer.from(files.get('index.html')!.contents).toString('utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style/);
  });
});
