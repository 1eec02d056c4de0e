/**
 * What a found tracker is, decided in a fixed order: the tenant's own registry (a person's word
 * wins), the Open Cookie Database by cookie or storage name, the third-party-web entity list by the
 * request's registrable domain, otherwise UNCLASSIFIED. An unknown item is never NECESSARY: that
 * would let it run before consent unchallenged.
 */
import thirdPartyWeb from 'third-party-web';
import { getDomain } from 'tldts';
import type { CookieCategory } from '../cmp/banner';
import type { Tracker } from '../cmp/document';
import type { CookieDatabase } from './cookie-database';
import type { Classification, FoundItem } from './finding';
import { isWidgetStorageName } from '../cmp/widget-storage';

/** The registrable domain (example.co.uk for a.b.example.co.uk); an IP address or localhost is its own site. */
export const siteOf = (host: string): string => getDomain(host) ?? host;

export const sameSite = (a: string, b: string): boolean => siteOf(a) === siteOf(b);

/** `host` is `domain` or one of its subdomains. */
const covers = (domain: string, host: string): boolean => host === domain || host.endsWith(`.${domain}`);

/**
 * third-party-web's categories in ours. Tag managers, consent tools and "other" load anything,
 * so what they are for is the tenant's call: UNCLASSIFIED until declared.
 */
const entityCategories: Record<string, CookieCategory> = {
  ad: 'MARKETING',
  social: 'MARKETING',
  marketing: 'MARKETING',
  analytics: 'ANALYTICS',
  'customer-success': 'FUNCTIONAL',
  video: 'FUNCTIONAL',
  cdn: 'FUNCTIONAL',
  hosting: 'FUNCTIONAL',
  utility: 'FUNCTIONAL',
  content: 'FUNCTIONAL',
};

const fromRegistry = (item: FoundItem, registry: readonly Tracker[]): Tracker | undefined =>
  // A named entry for this cookie or key anywhere on the item's site, else a domain-wide entry covering its host.
  registry.find((tracker) => item.name !== null && tracker.cookieName === item.name && sameSite(tracker.domain, item.domain)) ??
  registry.find((tracker) => tracker.cookieName === undefined && covers(tracker.domain, item.domain));

const fromEntityList = (host: string) => thirdPartyWeb.getEntity(host) ?? thirdPartyWeb.getEntity(siteOf(host));

export const classify = (item: FoundItem, registry: readonly Tracker[], database: CookieDatabase): Classification => {
  // This service's own widget declares its storage: the visitor's choices, strictly necessary.
  if (item.kind !== 'REQUEST' && item.name !== null && isWidgetStorageName(item.name)) return { category: 'NECESSARY', vendor: 'Consent banner (this service)', classifiedBy: 'REGISTRY' };
  const declared = fromRegistry(item, registry);
  if (declared) return { category: declared.category, vendor: declared.vendor ?? null, classifiedBy: 'REGISTRY' };
  const row = item.name === null ? undefined : database.lookup(item.name, item.domain);
  if (row) return { category: row.category, vendor: row.vendor || null, classifiedBy: 'OPEN_COOKIE_DATABASE' };
  const entity = item.kind === 'REQUEST' ? fromEntityList(item.domain) : undefined;
  const category = entity ? entityCategories[entity.category] : undefined;
  if (entity && category) return { category, vendor: entity.name, classifiedBy: 'THIRD_PARTY_WEB' };
  return { category: 'UNCLASSIFIED', vendor: entity?.name ?? null, classifiedBy: 'NONE' };
};
