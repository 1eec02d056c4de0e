import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scheduledLanguageCodes } from '../shared/i18n/languages';
import { readBuiltIn } from '../shared/words/built-in-words';
import { buildWebApp } from '../web/build';

/** Both banners, JS and CSS (the CSS ships inside the script), gzipped; cookieconsent v3 is 15.4 KB, Klaro 68.9 KB. */
const budgetBytes = 8 * 1024;

describe('widget size budget', () => {
  it(`ships cms.js within ${budgetBytes} bytes gzipped, with no eval`, async () => {
    const files = buildWebApp('widget');
    const script = files.get('v1/cms.js');
    expect(script).toBeDefined();
    const gzipped = gzipSync(script!.contents, { level: 9 }).length;
    console.log(`cms.js: ${script!.contents.length} bytes, ${gzipped} bytes gzipped (budget ${budgetBytes})`);
    expect(gzipped).toBeLessThanOrEqual(budgetBytes);
    const source = Buffer.from(script!.contents).toString('utf8');
    expect(source).not.toMatch(/\beval\(|new Function\(|innerHTML/);
  });

  it("carries none of the service's built-in words: it reads its language's from the public notice and cookie configuration", async () => {
    const source = Buffer.from(buildWebApp('widget').get('v1/cms.js')!.contents).toString('utf8');
    for (const language of scheduledLanguageCodes) {
      const { words } = (await readBuiltIn(language))!;
      for (const key of ['acceptAll', 'rejectAll', 'notice.withdrawalHint'] as const) expect(source.includes(words[key]!), `${language} ${key}`).toBe(false);
    }
  });

  it('has no optional call with a spread argument, which Chrome 80 to 90 run wrongly (web/build.ts ships optional chaining unlowered)', () => {
    const source = Buffer.from(buildWebApp('widget').get('v1/cms.js')!.contents).toString('utf8');
    // Wider than the defect (a spread before another argument): any spread in an optional call.
    expect(source).not.toMatch(/\?\.[\w$.[\]]*\([^)]*\.\.\./);
  });
});
