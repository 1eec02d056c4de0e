import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trackerKey } from '../shared/cmp/document';
import { trackerInput, trackerKeyBody } from '../shared/cmp/schemas';
import { normaliseTrackerDomain } from '../shared/cmp/tracker-key';
import { findingKinds } from '../shared/scanner/finding';
import { trackerOf } from '../shared/scanner/report';
import type { Finding } from '../shared/scanner/run';

/** Hosts as the scanner meets them: cookie domains (leading dot), page and request hosts (IPv6 in brackets or bare, a trailing dot), any case, odd bytes. */
const label = fc.stringMatching(/^[a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,8}[a-zA-Z0-9_])?$/);
const domain = fc.oneof(
  fc.tuple(fc.constantFrom('', '.', '..'), fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '.')).map(([lead, labels, trail]) => `${lead}${labels.join('.')}${trail}`),
  fc.ipV4(),
  fc.ipV6().chain((address) => fc.constantFrom(address, `[${address}]`, address.toUpperCase())),
  fc.constantFrom('::1', '[::1]', 'localhost', 'localhost.', 'LOCALHOST', '127.0.0.1', '[::ffff:127.0.0.1]', 'bücher.example', 'xn--bcher-kva.example', ' example.com '),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
/** Cookie names and storage keys: anything a page can set, control characters, whitespace, lone surrogates and great length included. */
const name = fc.oneof(
  fc.constant(null),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 250 }),
  fc.constantFrom('', ' ', '_ga', ' padded ', '\u0000', 'a\u0007b', '\uD800', 'x'.repeat(199) + '\uD83D\uDE00'),
);

const findingOf = (found: { domain: string; name: string | null; kind: (typeof findingKinds)[number] }): Finding => ({
  kind: found.name === null ? 'REQUEST' : found.kind,
  name: found.name,
  domain: found.domain,
  category: 'ANALYTICS',
  vendor: null,
  firstParty: true,
  pages: ['https://example.com/'],
  setBeforeConsent: true,
  declared: false,
  classifiedBy: 'NONE',
});

describe('tracker keys', () => {
  it('makes every registry entry the scanner adds one that DELETE (and PUT) /cmp/trackers names exactly', () => {
    fc.assert(
      fc.property(fc.record({ domain, name, kind: fc.constantFrom(...findingKinds) }), (found) => {
        const tracker = trackerOf(findingOf(found));
        if (tracker === null) return;
        const key = { domain: tracker.domain, ...(tracker.cookieName !== undefined ? { cookieName: tracker.cookieName } : {}) };
        const parsed = trackerKeyBody.safeParse(key);
        expect(parsed.success, JSON.stringify(key)).toBe(true);
        expect(parsed.data).toEqual(key);
        expect(trackerKey(parsed.data!)).toBe(trackerKey(tracker));
        const { declaredByAdmin: _declared, ...fields } = tracker;
        expect(trackerInput.safeParse(fields).success).toBe(true);
      }),
      { numRuns: 2000, seed: 20261125 },
    );
  });

  it('keeps every host a page can be on: ::1, [::1], localhost. and the like become registry entries', () => {
    const cases: [string, string][] = [
      ['::1', '::1'],
      ['[::1]', '::1'],
      ['[0:0:0:0:0:0:0:1]', '::1'],
      ['localhost.', 'localhost'],
      ['.Example.COM.', 'example.com'],
      ['bücher.example', 'xn--bcher-kva.example'],
      ['_dmarc.example.com', '_dmarc.example.com'],
    ];
    for (const [found, stored] of cases) {
      expect(trackerOf(findingOf({ domain: found, name: 'uid', kind: 'COOKIE' }))?.domain, found).toBe(stored);
      expect(trackerKeyBody.parse({ domain: found, cookieName: 'uid' }).domain, found).toBe(stored);
    }
    // A cookie without a name is reported but added to no registry: an entry without cookieName means the whole domain.
    expect(trackerOf(findingOf({ domain: 'example.com', name: ' ', kind: 'COOKIE' }))).toBeNull();
  });

  it('normalises a domain once and for all (idempotent)', () => {
    fc.assert(
      fc.property(domain, (raw) => {
        const once = normaliseTrackerDomain(raw);
        if (once !== null) expect(normaliseTrackerDomain(once)).toBe(once);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
