import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../shared/consent/export';
import { documentPolicy, renderDocument } from '../shared/documents/render';
import { packDocumentModel } from '../shared/evidence-pack/document';
import type { EvidencePack } from '../shared/evidence-pack/pack';
import { checkpointRequestPut, checkpointRequestType } from '../shared/evidence/checkpoint-request';
import { evidenceLogConsumer } from '../shared/evidence/log-consumer';

/** The offline verifiers' shared checks (plain .mjs, no types: the scripts need nothing but Node.js). */
const checks: {
  canonicalJson(value: unknown): string;
  consistencyHolds(from: number, to: number, fromRoot: Buffer, toRoot: Buffer, proof: Buffer[]): boolean;
} = await import(new URL('../scripts/evidence-checks.mjs', import.meta.url).href);

const sha = (...parts: Uint8Array[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
const leaves = Array.from({ length: 70 }, (_, at) => sha(Buffer.from([0]), Buffer.from(`entry ${at}`)));
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
/** RFC 9162 §2.1.1 and §2.1.4.1, straight from the text. */
const mth = (a: number, b: number): Buffer => (b - a === 0 ? sha() : b - a === 1 ? leaves[a]! : sha(Buffer.from([1]), mth(a, a + split(b - a)), mth(a + split(b - a), b)));
const subproof = (m: number, a: number, b: number, complete: boolean): Buffer[] => {
  if (m === b - a) return complete ? [] : [mth(a, b)];
  const k = split(b - a);
  return m <= k ? [...subproof(m, a, a + k, complete), mth(a + k, b)] : [...subproof(m - k, a + k, b, false), mth(a, a + k)];
};

describe('the verifiers\' RFC 8785 canonical JSON', () => {
  it('is the canonicalize package the service hashes with, copied unchanged (one implementation)', () => {
    const vendored = readFileSync(new URL('../scripts/vendor/canonicalize/canonicalize.cjs', import.meta.url));
    const installed = readFileSync(createRequire(import.meta.url).resolve('canonicalize'));
    expect(vendored.equals(installed)).toBe(true);
  });

  it('writes exactly what the service hashes (the canonicalize package) for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(checks.canonicalJson(parsed)).toBe(canonicalize(parsed));
      }),
      { numRuns: 500, seed: 8785 },
    );
    expect(checks.canonicalJson({ b: [1e21, -0, 0.1], a: 'é\u2028"', ä: null, A: true })).toBe('{"A":true,"a":"é\u2028\\"","b":[1e+21,0,0.1],"ä":null}');
  });

  it('refuses values nested past its bound instead of overflowing the stack', () => {
    let deep: unknown = 1;
    for (let depth = 0; depth < 100; depth += 1) deep = [deep];
    expect(() => checks.canonicalJson(deep)).toThrow(/nested more than 64/);
  });
});

describe("the verifiers' RFC 9162 consistency check", () => {
  it('accepts the RFC\'s proof between every pair of sizes up to 70 and rejects it altered or for other roots', () => {
    for (let to = 1; to <= 70; to += 1) {
      for (let from = 1; from <= to; from += 1) {
        const proof = from === to ? [] : subproof(from, 0, to, true);
        expect(checks.consistencyHolds(from, to, mth(0, from), mth(0, to), proof), `${from}→${to}`).toBe(true);
        if (proof.length > 0) {
          const altered = proof.map((node, index) => (index === proof.length - 1 ? sha(node) : node));
          expect(checks.consistencyHolds(from, to, mth(0, from), mth(0, to), altered)).toBe(false);
        }
        expect(checks.consistencyHolds(from, to, mth(0, from), sha(Buffer.from('other')), proof)).toBe(false);
      }
    }
    expect(checks.consistencyHolds(3, 2, mth(0, 3), mth(0, 2), [])).toBe(false);
  });
});

describe('CSV cells of the records export', () => {
  it.each([
    ['plain', 'plain'],
    ['=1+2', "'=1+2"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=a,"b"', '"\'=a,""b"""'],
    ['line\nbreak', '"line\nbreak"'],
    // A ; separates cells in de, fr and other locales: quoted, and a formula after it made inert.
    [';=1+1', `";'=1+1"`],
    ['a;b', '"a;b"'],
    ['x,@SUM(A1)', `"x,'@SUM(A1)"`],
    ['x\n-1', `"x\n'-1"`],
    // A formula behind leading blanks or quotes (OWASP): some spreadsheets trim them first.
    [' =1+1', "' =1+1"],
    ['"=1+1', `"'""=1+1"`],
    ["'+1", "''+1"],
    ['x; "=1', `"x;' ""=1"`],
    // Full-width forms, which some spreadsheets read as their ASCII twins.
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['a-b=c', 'a-b=c'],
    [null, ''],
    [['p1', 'p2'], '"p1;p2"'],
    [{ p1: true, p2: false }, '"p1=true;p2=false"'],
    [7, '7'],
  ])('%j is written %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  /**
   * How a spreadsheet splits a line: a cell is quoted only if its first character is a quote (a
   * quote later in the cell is a literal), so a file read with the other locale's separator is
   * split inside cells the writer quoted.
   */
  const cellsAsRead = (line: string, separator: ',' | ';'): string[] => {
    const cells: string[] = [];
    let at = 0;
    while (at <= line.length) {
      let cell = '';
      if (line[at] === '"') {
        at += 1;
        while (at < line.length && !(line[at] === '"' && line[at + 1] !== '"')) {
          cell += line[at];
          at += line[at] === '"' ? 2 : 1;
        }
        at += 1;
      }
      const end = line.indexOf(separator, at);
      cells.push(cell + line.slice(at, end < 0 ? line.length : end));
      at = end < 0 ? line.length + 1 : end + 1;
    }
    return cells;
  };
  /** A cell run as a formula: a trigger first, or behind blanks and quotes; a leading apostrophe marks text. */
  const formula = /^[\t\r]|^[\s"]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

  it('leaves no cell a spreadsheet would run as a formula, whichever of , and ; it splits on', () => {
    const hostile = [';=1+1', ";=cmd|' /C calc'!A0;", 'a,=1+1', 'x; @SUM(1)', ' "=2', 'ok;-3,+4', '=1;=2', 'a\r\n=1'];
    const piece = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ';', ',', '"', "'", ' ', '\t', 'a', '1') });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...hostile), piece), { minLength: 1, maxLength: 6 }), (cells) => {
        // One line: a cell's own line break is what a reader of either locale splits rows on, checked apart below.
        const line = csvLine(['id', ...cells]).slice(0, -2);
        for (const separator of [',', ';'] as const) {
          for (const row of line.split(/\r\n|\r|\n/)) {
            for (const cell of cellsAsRead(row, separator)) expect(cell, `${separator} ${JSON.stringify(line)}`).not.toMatch(formula);
          }
        }
      }),
      { numRuns: 2000, seed: 31 },
    );
  });

  it('ends a line with CRLF', () => {
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});

describe('the printable pack page', () => {
  const hostile = '</script><script>alert(1)</script>"\'&';
  const pack: EvidencePack = {
    packVersion: 2,
    kind: 'consent-service/evidence-pack',
    generatedAt: '2026-01-02T03:04:05.000Z',
    tenant: { tenantId: 't1', name: hostile, slug: 'shop' },
    principalHash: 'a'.repeat(64),
    proofAlgorithm: 'SHA-256',
    records: [
      {
        recordId: 'r1',
        proofVersion: 2,
        payload: { recordId: 'r1', noticeId: 'n1', noticeVersionNumber: 1, languageShown: 'UR', consentGiven: { p1: true, p2: false }, createdAt: '2026-01-01T00:00:00.000Z', userAgent: hostile },
        proofHash: 'b'.repeat(64),
        receipt: 'x.y.z',
        log: { status: 'PENDING', leafIndex: null, inclusionProof: [] },
      },
    ],
    notices: [
      {
        noticeId: 'n1',
        versionNumber: 1,
        language: 'UR',
        publishedAt: '2025-12-01T00:00:00.000Z',
        changeNote: hostile,
        text: {
          language: 'UR',
          title: 'رازداری',
          introText: hostile,
          rightsText: 'r',
          complaintText: 'c',
          contactEmail: 'dpo@shop.example',
          contactUrl: null,
          purposes: [
            { id: 'p1', name: 'آرڈر', description: hostile, dataCategories: ['email'], legalBasis: 'CONSENT', required: true },
            { id: 'p2', name: hostile, description: 'd', dataCategories: [], legalBasis: 'CONSENT', required: false },
          ],
        },
      },
    ],
    withdrawals: [],
    guardianDecisions: [],
    log: { origin: 'consent-service/log/t1', checkpoint: null, latestCheckpoint: null, consistencyProof: [] },
    keys: { keys: [] },
    signature: 'eyJ9..c2ln',
  };
  const html = renderDocument(packDocumentModel(pack, { dpoContact: 'dpo@shop.example', timeZone: undefined, actors: new Map() }));

  it('escapes every value and lets nothing close the embedded JSON', () => {
    expect(html).not.toContain(hostile);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    const json = html.slice(html.indexOf('>', html.indexOf('id="evidence-pack"')) + 1, html.lastIndexOf('</script>'));
    expect(JSON.parse(json)).toEqual(pack);
  });

  it('allows its one stylesheet by hash, and marks right-to-left text', () => {
    const style = html.slice(html.indexOf('<style>') + '<style>'.length, html.indexOf('</style>'));
    expect(documentPolicy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(html).toContain('<span lang="ur" dir="rtl">رازداری</span>');
    expect(html).toContain('Not yet covered by a signed checkpoint');
  });

  it('lists what retention erased: when, by which run, why, which values of which records and withdrawals, and where in the log', () => {
    const marker = { sha256: 'c'.repeat(64) };
    const erasedAt = '2026-03-01T10:00:00.000Z';
    const canonical = JSON.stringify({
      at: erasedAt,
      content: { identifierHash: 'a'.repeat(64), runId: `run-${hostile}`, erased: ['sealedContact', 'userAgent', 'ipAddress', 'withdrawalReason'], records: ['r1'], withdrawals: ['w1'], reason: 'RETENTION_PERIOD_ENDED' },
      documentId: 'e1e1e1e1-0000-7000-8000-000000000001',
      documentType: 'retention.erased',
      kind: 'document',
    });
    const erasedPack: EvidencePack = {
      ...pack,
      records: [{ ...pack.records[0]!, payload: { ...pack.records[0]!.payload, userAgent: marker, ipAddress: marker } }],
      withdrawals: [
        {
          withdrawalId: 'w1',
          evidence: { kind: 'withdrawal', withdrawalId: 'w1', recordIds: ['r1'], requestedPurposeIds: [], purposeIds: ['p1', 'p2'], method: 'WEB_PORTAL', reason: marker, withdrawnAt: '2026-01-05T00:00:00.000Z' },
          hash: 'd'.repeat(64),
          log: { status: 'INTEGRATED', leafIndex: 4, inclusionProof: [] },
        },
      ],
      erasures: [{ documentId: 'e1e1e1e1-0000-7000-8000-000000000001', canonical, hash: 'f'.repeat(64), log: { status: 'INTEGRATED', leafIndex: 9, inclusionProof: [] } }],
    };
    const page = renderDocument(packDocumentModel(erasedPack, { dpoContact: null, timeZone: 'Asia/Kolkata', actors: new Map() }));
    const erasures = page.slice(page.indexOf('What was erased when consent lapsed'), page.indexOf('The signed log'));
    for (const words of [
      'Erasure e1e1e1e1…',
      'The retention period of every purpose she had decided on ended, and her consent lapsed (section 8(7) of the Act)',
      'Her email address, kept sealed to write to her',
      'Her browser (user agent), in the evidence',
      'Her IP address, in the evidence',
      'The reason she gave for a withdrawal, in its evidence',
      'In the signed log at position 9.',
      'f'.repeat(64),
      '2026',
    ]) expect(erasures).toContain(words);
    expect(erasures).toContain('run-&lt;/script&gt;');
    expect(erasures).not.toContain(hostile);
    // The evidence shows each erased value as its SHA-256; the decision says a reason was given, and erased.
    expect(page).toContain('Erased when consent lapsed; its SHA-256: ');
    expect(page).toContain('giving a reason (erased when consent lapsed)');
    expect(page).toContain('1 erasure of her personal data');
    expect(page.match(/<script/g)).toHaveLength(1);
  });
});

describe('a checkpoint a pack asks for', () => {
  it('is a new item each time, in a partition of its own, naming its tenant, gone by TTL after a day, and taken by the evidence log consumer', () => {
    const now = new Date('2026-11-28T16:00:00.000Z');
    const first = checkpointRequestPut('tenant-1', now, 'a');
    const second = checkpointRequestPut('tenant-1', now, 'b');
    expect(first.Item).toMatchObject({ PK: 'LOG#tenant-1#REQUEST', type: checkpointRequestType, tenantId: 'tenant-1', requestedAt: now.toISOString(), expiresAt: now.getTime() / 1000 + 86_400 });
    // Each request is an INSERT the stream hands on; the log's own partition (whose queries read SK ranges) never holds one.
    expect(second.Item.SK).not.toBe(first.Item.SK);
    expect(evidenceLogConsumer.itemTypes).toContain(checkpointRequestType);
    expect(evidenceLogConsumer.eventNames).toEqual(['INSERT']);
  });
});
