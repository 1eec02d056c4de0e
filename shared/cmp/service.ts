import { minimumContrast, themeContrastFailures } from './contrast';
import canonicalize from 'canonicalize';
import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { ContentionError } from '../db/errors';
import { NotFoundError, ValidationError } from '../errors';
import { readSchedule, writeSchedule } from '../scanner/store';
import { requireTenant } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { assertChildDirectedRule, mergeBannerConfig } from './banner';
import { emptyDocument, maxDocumentBytes, renderPublicBody, sortTrackers, trackerKey, type CmpDocument, type Tracker } from './document';
import type { configBody, trackerInput, trackerKeyBody } from './schemas';
import { CmpNotConfiguredError } from './not-configured';
import { documentItems, readDocument, readRevision, RevisionMovedError } from './store';
import { writeTransaction, type NamedItem } from '../db/transact';
import { isLanguageCode, type LanguageCode } from '../i18n/languages';
import { offeredLabelSets, widgetLabelSets } from '../words/read';
import { WordsMovedError } from '../words/store';

/** The cookie-consent family is on every standard plan and on no collect-only plan. */
export const requireCmpTenant = async (tenantId: string): Promise<Tenant> => {
  const tenant = await requireTenant(tenantId);
  if (tenant.plan === 'collect-only') throw new CmpNotConfiguredError('the collect-only plan does not include it');
  return tenant;
};

/** Enough for every writer of a small burst to land: each failed attempt means another one did. */
export const attempts = 8;
export const pause = () => new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));

export type DocumentChange = (current: CmpDocument, tenant: Tenant) => CmpDocument;

/**
 * `change` applied to the latest document, as the items that write it conditionally on the
 * revision read (none when it changes nothing: `next` is then the document as it is). A tenant's
 * first document starts from its words: the widget's words it shows (shared/words).
 */
export const prepareDocumentChange = async (tenant: Tenant, change: DocumentChange, sizeField: string): Promise<{ next: CmpDocument; items: NamedItem[] }> => {
  const current = (await readDocument(tenant.tenantId)) ?? { ...emptyDocument(tenant), labelSets: await widgetLabelSets(tenant.tenantId) };
  let changed = change(current, tenant);
  if (changed === current) return { next: current, items: [] };
  const conditions: NamedItem[] = [];
  // A language the banner starts offering shows the service's built-in words; one it stops offering, only the tenant's.
  const toggled = symmetricDifference(current.languages, changed.languages);
  if (toggled.length > 0) {
    const offered = await offeredLabelSets(tenant.tenantId, changed.labelSets, changed.languages, toggled);
    changed = { ...changed, labelSets: offered.labelSets };
    conditions.push(offered.unchanged);
  }
  const next = { ...changed, revision: current.revision + 1, updatedAt: nowIso() };
  const body = renderPublicBody(next);
  if (Buffer.byteLength(body.body) > maxDocumentBytes) {
    throw new ValidationError({ [sizeField]: `the cookie-consent document would exceed ${maxDocumentBytes} bytes` }, 'Cookie-consent document too large');
  }
  return { next, items: [...documentItems(next, body), ...conditions] };
};

/** The scheduled languages in one list of lower-case banner codes and not the other, as upper-case codes. */
const symmetricDifference = (before: readonly string[], after: readonly string[]): LanguageCode[] => {
  const upper = (codes: readonly string[]) => new Set(codes.map((code) => code.toUpperCase()));
  const [was, is] = [upper(before), upper(after)];
  return [...new Set([...was, ...is])].filter((code): code is LanguageCode => isLanguageCode(code) && code !== 'EN' && was.has(code) !== is.has(code));
};

/** A cancelled transaction (a concurrent writer on the same items), or the tenant's words moving under a projection of them, is retried like a moved revision. */
export const isMovedRevision = (error: unknown): boolean => error instanceof RevisionMovedError || error instanceof ContentionError || error instanceof WordsMovedError;

/**
 * Applies `change` to the latest document and writes it conditionally on the revision it read;
 * if another change landed first, it re-reads and re-applies, so concurrent changes all land.
 * `change` returns the same document when nothing changes (no write, same ETag).
 */
export const changeDocument = async (tenantId: string, change: DocumentChange, sizeField: string): Promise<CmpDocument> => {
  const tenant = await requireCmpTenant(tenantId);
  for (let attempt = 1; ; attempt += 1) {
    const prepared = await prepareDocumentChange(tenant, change, sizeField);
    if (prepared.items.length === 0) return prepared.next;
    try {
      await writeTransaction(prepared.items);
      return prepared.next;
    } catch (error) {
      if (!isMovedRevision(error) || attempt === attempts) throw error;
      await pause();
    }
  }
};

const configOf = ({ trackers: _trackers, labelSets: _labelSets, configured: _configured, ...config }: CmpDocument) => config;

/**
 * With scanEnabled a tenant has a schedule item (due at once, then every 30 days after each
 * scheduled run); without it, none. Written after the document, and only when it changes.
 */
const syncScanSchedule = async (tenantId: string, scanEnabled: boolean) => {
  const scheduled = (await readSchedule(tenantId)) !== undefined;
  if (scanEnabled && !scheduled) await writeSchedule(tenantId, nowIso());
  if (!scanEnabled && scheduled) await writeSchedule(tenantId, null);
};

export const saveConfig = async (tenantId: string, input: z.output<typeof configBody>) => {
  const saved = await changeDocument(
    tenantId,
    (current) => {
      const merged = mergeBannerConfig(current, input);
      assertChildDirectedRule(merged);
      const next: CmpDocument = { ...merged, configured: true };
      return same(next, current) ? current : next;
    },
    'body',
  );
  await syncScanSchedule(tenantId, saved.scanEnabled);
  // The banner stays readable either way (the widget falls back to its default colours); saying so here lets the DPO fix the theme.
  return { ...configOf(saved), themeContrast: { minimum: minimumContrast, failures: themeContrastFailures(saved.bannerTheme) } };
};

/** The configuration, trackers and labels exactly as they were served at `revision`. */
export const configRevision = async (tenantId: string, revision: number) => {
  await requireCmpTenant(tenantId);
  const document = await readRevision(tenantId, revision);
  if (!document) throw new NotFoundError(`Revision ${revision}`);
  const { configured: _configured, ...served } = document;
  return served;
};

export const listTrackers = async (tenantId: string): Promise<Tracker[]> => {
  const tenant = await requireCmpTenant(tenantId);
  return ((await readDocument(tenantId)) ?? emptyDocument(tenant)).trackers;
};

/** The registry holds at most this many trackers, so the public document stays one item. */
export const maxTrackers = 1000;

/** Same content whatever the key order, so a repeated upsert or save is no change at all. */
const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

/** Inserts or replaces each tracker by domain and cookieName; a person's upsert is a declaration. */
export const upsertTrackers = async (tenantId: string, input: z.output<typeof trackerInput>[]) => {
  let counts = { created: 0, updated: 0, unchanged: 0 };
  const saved = await changeDocument(
    tenantId,
    (current) => {
      counts = { created: 0, updated: 0, unchanged: 0 };
      const registry = new Map(current.trackers.map((tracker) => [trackerKey(tracker), tracker]));
      for (const { declaredByAdmin: _ignored, ...fields } of input) {
        const tracker: Tracker = { ...fields, declaredByAdmin: true };
        const existing = registry.get(trackerKey(tracker));
        if (existing && same(existing, tracker)) counts.unchanged += 1;
        else {
          counts[existing ? 'updated' : 'created'] += 1;
          registry.set(trackerKey(tracker), tracker);
        }
      }
      if (counts.created === 0 && counts.updated === 0) return current;
      if (registry.size > maxTrackers) {
        throw new ValidationError({ trackers: `the registry would hold ${registry.size} trackers; the most is ${maxTrackers}` });
      }
      return { ...current, trackers: sortTrackers([...registry.values()]) };
    },
    'trackers',
  );
  return { ...counts, trackers: saved.trackers };
};

export const deleteTracker = async (tenantId: string, key: z.output<typeof trackerKeyBody>): Promise<Tracker> => {
  let removed: Tracker | undefined;
  await changeDocument(
    tenantId,
    (current) => {
      removed = current.trackers.find((tracker) => trackerKey(tracker) === trackerKey(key));
      if (!removed) throw new NotFoundError(key.cookieName ? `Tracker ${key.domain} ${key.cookieName}` : `Tracker ${key.domain} (no cookieName)`);
      return { ...current, trackers: current.trackers.filter((tracker) => tracker !== removed) };
    },
    'trackers',
  );
  return removed!;
};

/**
 * Adds trackers the scanner found to the registry, as declaredByAdmin false. A tracker whose key
 * is already there (a person's declaration, or an earlier scan's find) is left exactly as it is:
 * the scanner never overwrites. Past the registry's limit the rest are left out. Returns how many were added.
 */
export const addFoundTrackers = async (tenantId: string, found: Tracker[]): Promise<number> => {
  let added = 0;
  await changeDocument(
    tenantId,
    (current) => {
      const registry = new Map(current.trackers.map((tracker) => [trackerKey(tracker), tracker]));
      added = 0;
      for (const tracker of found) {
        if (registry.has(trackerKey(tracker)) || registry.size >= maxTrackers) continue;
        registry.set(trackerKey(tracker), { ...tracker, declaredByAdmin: false });
        added += 1;
      }
      return added === 0 ? current : { ...current, trackers: sortTrackers([...registry.values()]) };
    },
    'trackers',
  );
  return added;
};
