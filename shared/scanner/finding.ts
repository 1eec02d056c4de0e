import type { CookieCategory } from '../cmp/categories';

/**
 * What a scan finds and how it was classified: the names and shapes the API, the store and the
 * report share. Kept apart from the classifier, whose data (the third-party-web entity list and
 * the public-suffix trie, about 360 KB) only the scanner's own bundle should carry.
 */
export const findingKinds = ['COOKIE', 'LOCAL_STORAGE', 'SESSION_STORAGE', 'REQUEST'] as const;
export type FindingKind = (typeof findingKinds)[number];
export const classifiers = ['REGISTRY', 'OPEN_COOKIE_DATABASE', 'THIRD_PARTY_WEB', 'NONE'] as const;

export interface FoundItem {
  kind: FindingKind;
  /** Cookie name or storage key; null for a request. */
  name: string | null;
  /** Lower-case host: the cookie's domain, the storage's page host or the request's host. */
  domain: string;
}

export interface Classification {
  category: CookieCategory;
  vendor: string | null;
  classifiedBy: (typeof classifiers)[number];
}
