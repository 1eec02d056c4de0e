import { strongEtag } from '../etag';
import { nativeNamesOf } from '../i18n/languages';
import type { Tenant } from '../tenants/tenant';
import { defaultBannerConfig, type BannerConfig, type CookieCategory } from './banner';
import { defaultLabelSet, type LabelSet } from './labels';
import { normaliseTrackerDomain } from './tracker-key';

export interface Tracker {
  /** Lower-case host, without a leading dot. */
  domain: string;
  cookieName?: string;
  category: CookieCategory;
  vendor?: string;
  location?: string;
  /** true for trackers a person declared, false for those the scanner found. */
  declaredByAdmin: boolean;
}

/**
 * The whole cookie-consent state of a tenant, exactly as GET /cmp/config/:tenantId serves it.
 * `configured` turns true at the first PUT /cmp/config; until then trackers and labels can be
 * prepared but nothing is public.
 */
export interface CmpDocument extends BannerConfig {
  tenantId: string;
  configured: boolean;
  trackers: Tracker[];
  labelSets: Record<string, LabelSet>;
  showPoweredBy: boolean;
  brandName: string | null;
  logoUrl: string | null;
  /** Extension: bumps on every change; web events record the revision that was live. */
  revision: number;
  updatedAt: string | null;
}

/**
 * DynamoDB's item limit is 400 KB and the document is stored once with its public body; what
 * would not fit is refused, not truncated.
 */
export const maxDocumentBytes = 350_000;

export const emptyDocument = (tenant: Pick<Tenant, 'tenantId' | 'name'>): CmpDocument => ({
  tenantId: tenant.tenantId,
  configured: false,
  ...defaultBannerConfig(),
  trackers: [],
  labelSets: { en: defaultLabelSet() },
  showPoweredBy: true,
  brandName: tenant.name,
  logoUrl: null,
  revision: 0,
  updatedAt: null,
});

/**
 * The registry key of a tracker: its domain in canonical form (so an entry stored before domains
 * were normalised, `[::1]` or `localhost.`, is found, replaced and removed by its canonical name) and its cookieName.
 */
export const trackerKey = (tracker: Pick<Tracker, 'domain' | 'cookieName'>): string =>
  `${normaliseTrackerDomain(tracker.domain) ?? tracker.domain}\u0000${tracker.cookieName ?? ''}`;

/** Registry order: by domain, then cookie name (a domain-wide entry first). */
export const sortTrackers = (trackers: Tracker[]): Tracker[] =>
  [...trackers].sort((a, b) => a.domain.localeCompare(b.domain) || (a.cookieName ?? '').localeCompare(b.cookieName ?? ''));

/** The public response body, serialised once at write time, and its strong ETag. */
export const renderPublicBody = (document: CmpDocument): { body: string; etag: string } => {
  const { configured: _configured, ...publicFields } = document;
  // The banner's languages named in themselves: the widget carries no table of names (its size budget).
  const body = JSON.stringify({ data: { ...publicFields, languageNames: nativeNamesOf(['en', ...document.languages]) } });
  return { body, etag: strongEtag(body) };
};

