import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvColumns } from '../shared/consent/export';
import type { ConsentRecord } from '../shared/consent/record';
import { newTimeOrderedId } from '../shared/ids';
import { newTenant, useApi } from './support/api';
import { builtRecord, storeRecords } from './support/consent';

/**
 * GET /consent/records/export at 6,000 records (8 MB, more than the 5,000 a page may hold, so a
 * page ends by its size): every page within its size, the pages together exactly the range, in
 * order, CSV quoted and inert. The records are seeded as the consent store
 * writes them (storeRecords, tests/support/consent.ts). No worker runs here: nothing logs or
 * counts them (the first page's X-Export-Total is checked in tests/evidence-packs.test.ts).
 */
const { call, state } = useApi();

const total = 6_000;
const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
/** External ids a spreadsheet would run: records 0 to 7, on days 1 to 5, 1, 2 and 3. */
const hostile = ['=HYPERLINK("http://127.0.0.1:9/x","click")', '+SUM(A1:A9)', '-2+3', '@cmd', '\tTAB', ' =1+1', ';=1+1', '"=1+1'];
let big: Awaited<ReturnType<typeof newTenant>>;
let purposes: string[];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A record as recording builds one, created on `day`, with ten purposes and a long external id (about 1.4 KB a line). */
const seeded = (tenantId: string, index: number): ConsentRecord => {
  const day = days[index % days.length]!;
  const createdAt = new Date(Date.parse(`${day}T00:00:00.000Z`) + (index % 86_400) * 1000).toISOString();
  const evidence = {
    tenantId,
    recordId: newTimeOrderedId(new Date(createdAt)),
    noticeId: purposes[0]!,
    noticeVersionNumber: 1,
    noticeTextHash: sha256('notice'),
    languageShown: 'EN',
    positionShown: 'bottom-right',
    dataPrincipalHash: sha256(`principal-${index}`),
    externalId: index < hostile.length ? hostile[index]! : `customer-${index}-${'x'.repeat(180)}`,
    consentGiven: Object.fromEntries(purposes.map((id, at) => [id, (index + at) % 3 !== 0])),
    createdAt,
    ipAddress: '192.0.2.10',
    userAgent: null,
  };
  return builtRecord(evidence, { noticeTitle: 'Privacy notice, "v1"', decision: 'PARTIAL' });
};

const page = (token: string, query: string) =>
  fetch(`${state.baseUrl}/api/v1/consent/records/export?${query}`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.18.0.1' } });

/** Every page of an export, following X-Next-Cursor. */
const allPages = async (token: string, query: string) => {
  const pages: { body: string; count: number; headers: Headers }[] = [];
  let cursor: string | null = null;
  do {
    const response = await page(token, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status).toBe(200);
    pages.push({ body: await response.text(), count: Number(response.headers.get('x-export-records')), headers: response.headers });
    cursor = response.headers.get('x-next-cursor');
  } while (cursor);
  return pages;
};

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (quoted && char === '"' && text[at + 1] === '"') {
      cell += '"';
      at += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[at + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      at += 1;
    } else {
      cell += char;
    }
  }
  return rows;
};

beforeAll(async () => {
  // Above the bearer limit of 100 a minute: this file pages through the export several times.
  process.env.RATE_LIMIT_BEARER_PER_MINUTE = '10000';
  big = await newTenant(call);
  purposes = Array.from({ length: 10 }, () => randomUUID());
  await storeRecords(Array.from({ length: total }, (_, index) => seeded(big.tenantId, index)));
}, 120_000);

describe('GET /api/v1/consent/records/export', () => {
  it('exports 6,000 records as JSON lines, page by page within 4 MB, oldest first, each once, with the list fields and proof hashes', async () => {
    const pages = await allPages(big.token, 'format=jsonl');
    const lines = pages.flatMap((one) => one.body.split('\n').filter(Boolean));
    expect(lines).toHaveLength(total);
    for (const one of pages) {
      expect(one.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(one.count).toBeLessThanOrEqual(5000);
      // What Lambda would return: the body inside a JSON document.
      expect(Buffer.byteLength(JSON.stringify(one.body))).toBeLessThan(4_100_000);
    }
    // About 1.4 KB a line: the size, not the 5,000 limit, ends a page.
    expect(pages[0]!.count).toBeLessThan(5000);
    expect(pages.length).toBeGreaterThan(2);
    const rows = lines.map((line) => JSON.parse(line));
    const ids = rows.map((row) => row.id as string);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toEqual([...ids].sort());
    expect(Object.keys(rows[0]).sort()).toEqual([...csvColumns].sort());
    const first = rows.find((row) => row.externalId === hostile[0])!;
    expect(first).toMatchObject({ proofHash: expect.stringMatching(/^[0-9a-f]{64}$/), noticeTextHash: sha256('notice'), proofVersion: 2, consentGiven: true, isWithdrawn: false, languageShown: 'EN' });
    expect(Object.keys(first.consentByPurpose).sort()).toEqual([...purposes].sort());
  });

  it('exports CSV with one header row, quoted cells and formulas made inert, the same records as JSON lines', async () => {
    const pages = await allPages(big.token, 'format=csv&from=2026-03-02&to=2026-03-03');
    expect(pages[0]!.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(pages.map((one) => one.body).join(''));
    expect(rows[0]).toEqual(csvColumns);
    expect(rows.slice(1).filter((row) => row[0] === 'id')).toEqual([]);
    expect(rows).toHaveLength(1 + (total / days.length) * 2);
    const byColumn = (row: string[]) => Object.fromEntries(csvColumns.map((column, index) => [column, row[index]]));
    const data = rows.slice(1).map(byColumn);
    expect(data.every((row) => row.createdAt! >= '2026-03-02' && row.createdAt! < '2026-03-04')).toBe(true);
    expect(data[0]!.noticeTitle).toBe('Privacy notice, "v1"');
    // Records 1 and 2 (days 2 and 3) carry `+SUM(A1:A9)` and `-2+3`: they lead with an apostrophe.
    const externalIds = new Set(data.map((row) => row.externalId));
    expect(externalIds).toContain("'+SUM(A1:A9)");
    expect(externalIds).toContain("'-2+3");
    expect(data.some((row) => /^[=+\-@\t\r]/.test(row.externalId!))).toBe(false);
    // Records 6 and 7: a ; is quoted and what follows it inert, for a spreadsheet in a ; locale
    // (de, fr), which splits every line at each ; and reads no quote in the middle of a cell.
    expect(externalIds).toContain(";'=1+1");
    expect(externalIds).toContain(`'"=1+1`);
    const text = pages.map((one) => one.body).join('');
    expect(text).toContain(`,";'=1+1",`);
    const semicolonCells = text.split('\r\n').flatMap((line) => line.split(';'));
    expect(semicolonCells.filter((cell) => /^[\s"]*[=+\-@]/.test(cell))).toEqual([]);
    expect(data[0]!.consentByPurpose).toMatch(/^([0-9a-f-]{36}=(true|false);){9}[0-9a-f-]{36}=(true|false)$/);
  });

  it('refuses a range backwards, a cursor of another export or tenant, and a limit out of bounds', async () => {
    const backwards = await call('GET', '/api/v1/consent/records/export?from=2026-03-05&to=2026-03-01', { token: big.token });
    expect(backwards).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', fields: { from: expect.stringContaining('after') } } } });
    const first = await page(big.token, 'format=jsonl&limit=10');
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).toBeTruthy();
    for (const other of ['format=csv&limit=10', 'format=jsonl&limit=10&from=2026-03-01']) {
      const refused = await call('GET', `/api/v1/consent/records/export?${other}&cursor=${encodeURIComponent(cursor)}`, { token: big.token });
      expect(refused.body.error.fields, other).toHaveProperty('cursor');
    }
    const stranger = await newTenant(call);
    expect((await call('GET', `/api/v1/consent/records/export?limit=10&cursor=${encodeURIComponent(cursor)}`, { token: stranger.token })).status).toBe(400);
    expect((await call('GET', '/api/v1/consent/records/export?limit=0', { token: big.token })).body.error.fields).toHaveProperty('limit');
    expect((await call('GET', '/api/v1/consent/records/export?to=2026-02-30', { token: big.token })).body.error.fields).toHaveProperty('to');
  });
});
