import { describe, expect, it } from 'vitest';
import type { Tracker } from '../shared/cmp/document';
import { formerConfigCache, widgetStorage } from '../shared/cmp/widget-storage';
import { classify, siteOf } from '../shared/scanner/classify';
import { cookieDatabaseOf, openCookieDatabase, parseCsv, rowsOf } from '../shared/scanner/cookie-database';
import { buildFindings, maxReportBytes } from '../shared/scanner/report';
import { isViolation } from '../shared/scanner/run';

const database = openCookieDatabase();
const cookie = (name: string, domain = 'shop.example.in') => ({ kind: 'COOKIE' as const, name, domain });
const request = (domain: string) => ({ kind: 'REQUEST' as const, name: null, domain });

describe("this service's own widget", () => {
  it('declares its storage as NECESSARY, by the names the widget uses, and nothing that merely looks alike', () => {
    const tenantId = '5f0c0000-0000-4000-8000-000000000000';
    for (const item of [cookie(widgetStorage.consentCookie), { kind: 'LOCAL_STORAGE' as const, name: formerConfigCache(tenantId), domain: 'shop.example.in' }, { kind: 'LOCAL_STORAGE' as const, name: widgetStorage.noticeDecision(tenantId), domain: 'shop.example.in' }, { kind: 'LOCAL_STORAGE' as const, name: widgetStorage.language, domain: 'shop.example.in' }]) {
      expect(classify(item, [], database), item.name).toMatchObject({ category: 'NECESSARY', classifiedBy: 'REGISTRY' });
    }
    expect(classify(cookie('cms_consentX'), [], database).category).toBe('UNCLASSIFIED');
    expect(classify(request('cms_consent.example'), [], database).category).not.toBe('NECESSARY');
  });
});

describe('the Open Cookie Database', () => {
  it('parses quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi""\nthere"\r\n\n1,2')).toEqual([['a', 'b'], ['x, y', 'say "hi"\nthere'], ['1', '2']]);
  });

  it('loads every row of the shipped copy with a mapped category', () => {
    expect(rowsOf('ID,Platform,Category,Cookie / Data Key name,Domain,Wildcard match\n1,P,Unknown,x,,0\n').length).toBe(0);
    // 2,264 rows in the file; none is dropped for an unmapped category.
    expect(database.lookup('_ga', 'shop.example.in')).toMatchObject({ category: 'ANALYTICS', vendor: 'Google Analytics' });
  });

  it('classifies _ga as ANALYTICS and _fbp as MARKETING although they are set first-party', () => {
    expect(classify(cookie('_ga'), [], database)).toEqual({ category: 'ANALYTICS', vendor: 'Google Analytics', classifiedBy: 'OPEN_COOKIE_DATABASE' });
    expect(classify(cookie('_fbp'), [], database)).toMatchObject({ category: 'MARKETING', vendor: 'Facebook', classifiedBy: 'OPEN_COOKIE_DATABASE' });
  });

  it('honours wildcard rows (the longest prefix) and prefers exact names', () => {
    expect(classify(cookie('_ga_ABC123XYZ'), [], database)).toMatchObject({ category: 'ANALYTICS', classifiedBy: 'OPEN_COOKIE_DATABASE' });
    const custom = cookieDatabaseOf([
      { name: 'ab', domains: [], vendor: 'Short', category: 'MARKETING', wildcard: true },
      { name: 'abc', domains: [], vendor: 'Long', category: 'ANALYTICS', wildcard: true },
      { name: 'abcd', domains: [], vendor: 'Exact', category: 'FUNCTIONAL', wildcard: false },
    ]);
    expect(custom.lookup('abcx', 'a.example')?.vendor).toBe('Long');
    expect(custom.lookup('abx', 'a.example')?.vendor).toBe('Short');
    expect(custom.lookup('abcd', 'a.example')?.vendor).toBe('Exact');
  });

  it("uses a row's domain only to choose between rows of the same name", () => {
    const custom = cookieDatabaseOf([
      { name: 'sid', domains: ['vendor-a.example', 'vendor-a2.example'], vendor: 'A', category: 'MARKETING', wildcard: false },
      { name: 'sid', domains: [], vendor: 'Generic', category: 'NECESSARY', wildcard: false },
      { name: 'only', domains: ['vendor-b.example'], vendor: 'B', category: 'ANALYTICS', wildcard: false },
    ]);
    expect(custom.lookup('sid', 'x.vendor-a.example')?.vendor).toBe('A');
    expect(custom.lookup('sid', 'vendor-a2.example')?.vendor).toBe('A');
    expect(custom.lookup('sid', 'shop.example.in')?.vendor).toBe('Generic');
    // The only row of a name matches wherever the cookie was set.
    expect(custom.lookup('only', 'shop.example.in')?.vendor).toBe('B');
  });

  it('maps the database categories as its SOURCE.md says', () => {
    const csv = ['ID,Platform,Category,Cookie / Data Key name,Domain,Wildcard match', ...['Functional', 'Security', 'Necessary', 'Personalization', 'Analytics', 'Marketing'].map((category, index) => `${index},P,${category},c${index},x.example (3rd party),0`)].join('\n');
    const rows = rowsOf(csv);
    expect(rows.map((row) => row.category)).toEqual(['NECESSARY', 'NECESSARY', 'NECESSARY', 'FUNCTIONAL', 'ANALYTICS', 'MARKETING']);
    expect(rows[0]?.domains).toEqual(['x.example']);
    expect(rowsOf('ID,Platform,Category,Cookie / Data Key name,Domain,Wildcard match\n1,Bing,Marketing,_uetsid,.bing.com (3rd party) or .microsoft.com (3rd party),0\n')[0]?.domains).toEqual(['bing.com', 'microsoft.com']);
  });
});

describe('classification order', () => {
  const registry: Tracker[] = [
    { domain: 'example.in', cookieName: '_ga', category: 'FUNCTIONAL', vendor: 'Declared', declaredByAdmin: true },
    { domain: 'cdn.vendor.example', category: 'NECESSARY', declaredByAdmin: true },
  ];

  it("puts the tenant's registry first, by name on the same site or domain-wide", () => {
    expect(classify(cookie('_ga'), registry, database)).toEqual({ category: 'FUNCTIONAL', vendor: 'Declared', classifiedBy: 'REGISTRY' });
    expect(classify(request('img.cdn.vendor.example'), registry, database)).toMatchObject({ category: 'NECESSARY', classifiedBy: 'REGISTRY' });
    // The same name on another site is not the declared one.
    expect(classify(cookie('_ga', 'other.example'), registry, database).classifiedBy).toBe('OPEN_COOKIE_DATABASE');
  });

  it('classifies request domains through third-party-web by registrable domain', () => {
    expect(classify(request('www.google-analytics.com'), [], database)).toMatchObject({ category: 'ANALYTICS', classifiedBy: 'THIRD_PARTY_WEB' });
    expect(classify(request('connect.facebook.net'), [], database)).toMatchObject({ category: 'MARKETING', vendor: 'Facebook', classifiedBy: 'THIRD_PARTY_WEB' });
  });

  it('never guesses NECESSARY for something unknown', () => {
    expect(classify(cookie('zz_unknown_cookie_7'), [], database)).toEqual({ category: 'UNCLASSIFIED', vendor: null, classifiedBy: 'NONE' });
    expect(classify(request('127.0.0.2'), [], database)).toEqual({ category: 'UNCLASSIFIED', vendor: null, classifiedBy: 'NONE' });
    expect(classify({ kind: 'LOCAL_STORAGE', name: 'my-app-state', domain: '127.0.0.1' }, [], database).category).toBe('UNCLASSIFIED');
  });

  it('treats an IP address or localhost as its own site', () => {
    expect(siteOf('127.0.0.1')).toBe('127.0.0.1');
    expect(siteOf('localhost')).toBe('localhost');
    expect(siteOf('a.b.example.co.uk')).toBe('example.co.uk');
  });
});

describe('the report', () => {
  it('stays within one DynamoDB item however many trackers and long page URLs a site has', () => {
    const page = (index: number) => `https://shop.example.in/${'p'.repeat(1900)}/${index}`;
    const observations = Array.from({ length: 800 }, (_, index) =>
      Array.from({ length: 30 }, (_, pageIndex) => ({ kind: 'COOKIE' as const, name: `c${index}`, domain: 'shop.example.in', page: page(pageIndex), beforeConsent: index % 2 === 0 })),
    ).flat();
    const findings = buildFindings(observations, [{ domain: 'shop.example.in', category: 'NECESSARY', declaredByAdmin: true }], database);
    expect(Buffer.byteLength(JSON.stringify(findings))).toBeLessThanOrEqual(maxReportBytes);
    expect(findings.length).toBeGreaterThan(100);
    // Pages are cut to the first before any finding is dropped.
    expect(findings[0]).toMatchObject({ classifiedBy: 'REGISTRY', declared: true, pages: [page(0)] });
  });

  it('counts a violation only for what is seen before consent and is not NECESSARY', () => {
    const findings = buildFindings(
      [
        { kind: 'COOKIE', name: '_ga', domain: '127.0.0.1', page: 'http://127.0.0.1/', beforeConsent: true },
        { kind: 'COOKIE', name: '_gid', domain: '127.0.0.1', page: 'http://127.0.0.1/', beforeConsent: false },
        { kind: 'COOKIE', name: 'CookieConsent', domain: '127.0.0.1', page: 'http://127.0.0.1/', beforeConsent: true },
      ],
      [],
      database,
    );
    expect(findings.filter(isViolation).map((finding) => finding.name)).toEqual(['_ga']);
  });
});
