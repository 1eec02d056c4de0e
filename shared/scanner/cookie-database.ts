/**
 * The Open Cookie Database (Apache-2.0, data/open-cookie-database/, see SOURCE.md there): names
 * of cookies and storage keys with the vendor and purpose, used by the scanner to classify what it
 * finds. Read once per process from the CSV shipped unchanged, so updating it is a file copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CookieCategory } from '../cmp/banner';

export interface CookieRow {
  name: string;
  /** Lower-case hosts the row describes (none when the database names none), without "(3rd party)". */
  domains: string[];
  vendor: string;
  category: CookieCategory;
  /** The name is a prefix (e.g. `_ga_` matches `_ga_ABC123`). */
  wildcard: boolean;
}

/**
 * The database's categories in ours (its SOURCE.md): "Functional" there means strictly necessary
 * for the site, so it is NECESSARY here; Personalization is what we call FUNCTIONAL.
 */
const categoryMap: Record<string, CookieCategory> = {
  Functional: 'NECESSARY',
  Security: 'NECESSARY',
  Necessary: 'NECESSARY',
  Personalization: 'FUNCTIONAL',
  Analytics: 'ANALYTICS',
  Marketing: 'MARKETING',
};

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
export const parseCsv = (text: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (record.some((value) => value !== '')) records.push(record);
    record = [];
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted && char === '"' && text[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') quoted = !quoted;
    else if (quoted) field += char;
    else if (char === ',') endField();
    else if (char === '\n') endRecord();
    else if (char !== '\r') field += char;
  }
  endRecord();
  return records;
};

/** "a.com (3rd party) or .b.com (3rd party)" → ['a.com', 'b.com']. */
const cleanDomains = (domain: string): string[] =>
  domain
    .split(/\s+or\s+|,/i)
    .map((part) =>
      part
        .replace(/\(3rd party\)/gi, '')
        .trim()
        .toLowerCase()
        .replace(/^\*?\./, ''),
    )
    .filter((part) => part !== '');

export const rowsOf = (csv: string): CookieRow[] => {
  const [header = [], ...records] = parseCsv(csv);
  const column = (name: string) => header.indexOf(name);
  const [platform, category, name, domain, wildcard] = ['Platform', 'Category', 'Cookie / Data Key name', 'Domain', 'Wildcard match'].map(column);
  return records.flatMap((record) => {
    const mapped = categoryMap[record[category!] ?? ''];
    const key = (record[name!] ?? '').trim();
    // A row whose category we cannot map is left out rather than guessed.
    if (!mapped || key === '') return [];
    return [{ name: key, domains: cleanDomains(record[domain!] ?? ''), vendor: (record[platform!] ?? '').trim(), category: mapped, wildcard: record[wildcard!] === '1' }];
  });
};

/**
 * The CSV beside this module in the repository, or at OPEN_COOKIE_DATABASE (the scanner image
 * puts it next to its bundle, where import.meta.url points).
 */
const csvPath = (): string => {
  const configured = process.env.OPEN_COOKIE_DATABASE;
  if (configured) return configured;
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'data/open-cookie-database/open-cookie-database.csv'), join(here, 'open-cookie-database.csv')];
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
};

export interface CookieDatabase {
  /** The row for a cookie or storage key: exact names before wildcard prefixes (longest first). */
  lookup: (name: string, domain: string) => CookieRow | undefined;
}

/** Among rows of one name, the row whose domain covers the item's; else a row naming no domain; else the first. */
const choose = (rows: CookieRow[], domain: string): CookieRow | undefined =>
  rows.find((row) => row.domains.some((candidate) => domain === candidate || domain.endsWith(`.${candidate}`))) ??
  rows.find((row) => row.domains.length === 0) ??
  rows[0];

export const cookieDatabaseOf = (rows: CookieRow[]): CookieDatabase => {
  const exact = new Map<string, CookieRow[]>();
  for (const row of rows.filter((candidate) => !candidate.wildcard)) exact.set(row.name, [...(exact.get(row.name) ?? []), row]);
  const prefixes = rows.filter((row) => row.wildcard).sort((a, b) => b.name.length - a.name.length);
  return {
    lookup: (name, domain) => {
      const rowsOfName = exact.get(name);
      if (rowsOfName) return choose(rowsOfName, domain);
      const matching = prefixes.filter((row) => name.startsWith(row.name));
      return choose(matching.filter((row) => row.name.length === matching[0]?.name.length), domain);
    },
  };
};

let loaded: CookieDatabase | undefined;

export const openCookieDatabase = (): CookieDatabase => (loaded ??= cookieDatabaseOf(rowsOf(readFileSync(csvPath(), 'utf8'))));
