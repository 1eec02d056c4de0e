import { describe, expect, it } from 'vitest';
import { immutableCacheControl } from '../infra/web';
import { deployableFiles, presentWebApps } from '../web/build';

/** What the asset bucket receives: every app, its stable names short-lived, the entry also content-hashed. */
describe('web assets for the bucket', () => {
  it('builds every app', () => {
    expect(presentWebApps().sort()).toEqual(['dashboard', 'portal', 'widget']);
  });

  it('publishes the widget at v1/cms.js (short-lived) and under a content-hashed immutable name with the same bytes', () => {
    const files = deployableFiles('widget');
    const stable = files.find((file) => file.key === 'widget/v1/cms.js');
    const hashed = files.filter((file) => /^widget\/v1\/cms\.[0-9a-f]{12}\.js$/.test(file.key));
    expect(stable?.caching).toBe('short');
    expect(hashed).toHaveLength(1);
    expect(hashed[0]!.caching).toBe('immutable');
    expect(Buffer.from(hashed[0]!.contents).equals(Buffer.from(stable!.contents))).toBe(true);
    expect(immutableCacheControl).toContain('immutable');
  });

  it('publishes the portal page and its script under /portal', () => {
    const keys = deployableFiles('portal').map((file) => file.key);
    expect(keys).toEqual(expect.arrayContaining(['portal/index.html', 'portal/app.js']));
  });

  it('publishes the dashboard: index.html never cached, every script and stylesheet content-hashed and immutable', () => {
    const files = deployableFiles('dashboard');
    const page = files.find((file) => file.key === 'dashboard/index.html');
    expect(page?.caching).toBe('none');
    const html = Buffer.from(page!.contents).toString('utf8');
    const named = [...html.matchAll(/(?:src|href)="\/(dashboard\/[^"]+)"/g)].map((match) => match[1]);
    expect(named).toHaveLength(2);
    for (const key of named) expect(files.find((file) => file.key === key)?.caching).toBe('immutable');
    const assets = files.filter((file) => file.key !== 'dashboard/index.html');
    expect(assets.length).toBeGreaterThan(5);
    for (const file of assets) {
      expect(file.key).toMatch(/^dashboard\/(chunks\/)?[\w-]+-[A-Z0-9]{8}\.(js|css)$/);
      expect(file.caching).toBe('immutable');
    }
  });
});
