import { dayMs } from '../clock';
import { cookieCategories, decisionKindOf, optionalCategories, type CookieCategory } from './banner';

export const cookieEvents = ['COOKIE_CONSENT_GIVEN', 'COOKIE_CONSENT_UPDATED', 'COOKIE_CONSENT_WITHDRAWN'] as const;
export type CookieEvent = (typeof cookieEvents)[number];

/** A banner decision as received: one append-only ConsentAuditLog entry. */
export interface WebEventEntry {
  entryId: string;
  tenantId: string;
  visitorId: string;
  channel: 'WEB_COOKIE';
  event: CookieEvent;
  /** As the visitor's browser sent them. */
  categories: Record<string, boolean>;
  ipAddress: string;
  userAgent: string | null;
  widgetVersion: string | null;
  /** The config revision live when the event arrived (the banner may have shown a cached one up to 5 minutes older). */
  configRevision: number;
  createdAt: string;
  /** A child's or guarded visitor's event (s.9); absent for an adult's. */
  principalStatus?: 'CHILD' | 'GUARDED';
}

/** A server-side tracker call reported by the tenant, judged against the visitor's state at that moment. */
export interface ServerEventEntry {
  entryId: string;
  tenantId: string;
  visitorId: string;
  channel: 'SERVER_SIDE';
  trackerName: string;
  fired: boolean;
  category: CookieCategory;
  /** Whether the visitor's state allowed the category when the call was logged. */
  allowed: boolean;
  /** Fired while the visitor's state said no: the evidence a DPO looks for. */
  firedWithoutConsent: boolean;
  apiKeyId: string;
  createdAt: string;
}

/** The visitor's latest decision, replaced by each newer event. */
export interface VisitorState {
  tenantId: string;
  visitorId: string;
  categories: Record<string, boolean>;
  withdrawn: boolean;
  lastEvent: CookieEvent;
  lastUpdated: string;
  lastEntryId: string;
  /** Set while the visitor's latest decision was a child's or guarded person's: no optional category is granted. */
  principalStatus?: 'CHILD' | 'GUARDED';
}

export interface ConsentStatus {
  visitorId: string;
  found: boolean;
  categories: Record<string, boolean>;
  lastUpdated: string | null;
  withdrawn: boolean;
  principalStatus?: 'CHILD' | 'GUARDED';
}

/** A withdrawal turns every optional category off, whatever the browser sent with it. */
export const stateCategories = (event: CookieEvent, categories: Record<string, boolean>): Record<string, boolean> =>
  event === 'COOKIE_CONSENT_WITHDRAWN'
    ? { ...Object.fromEntries(Object.keys(categories).map((category) => [category, false])), NECESSARY: true }
    : { ...categories, NECESSARY: true };

/**
 * What a tenant's server should do for a visitor. No state, or one older than reconsentDays (the
 * banner asks again), reads as not found: every optional category off. NECESSARY is always on.
 */
export const consentStatusOf = (visitorId: string, state: VisitorState | undefined, reconsentDays: number, now: Date): ConsentStatus => {
  const allOff = Object.fromEntries(cookieCategories.map((category) => [category, category === 'NECESSARY']));
  const current = state && now.getTime() - Date.parse(state.lastUpdated) <= reconsentDays * dayMs ? state : undefined;
  if (!current) return { visitorId, found: false, categories: allOff, lastUpdated: null, withdrawn: false };
  // A child's choices are no consent: tracking is barred for children, and no parent approved the rest.
  if (current.principalStatus) return { visitorId, found: true, categories: allOff, lastUpdated: current.lastUpdated, withdrawn: current.withdrawn, principalStatus: current.principalStatus };
  return {
    visitorId,
    found: true,
    categories: { ...allOff, ...current.categories, NECESSARY: true },
    lastUpdated: current.lastUpdated,
    withdrawn: current.withdrawn,
  };
};

/** Counter names on a day's item. */
export const dailyCounter = {
  optIn: (category: string) => `optIn_${category}`,
  seen: (category: string) => `seen_${category}`,
};

/**
 * A decision (given or updated) counts once as accept, reject or partial, and per optional
 * category it names as seen and, if true, opted in. A withdrawal counts as a withdrawal only.
 */
export const webEventCounters = (event: CookieEvent, categories: Record<string, boolean>, child = false): Record<string, number> => {
  if (event === 'COOKIE_CONSENT_WITHDRAWN') return { events: 1, withdrawals: 1 };
  // A child's decision grants nothing, so it is counted as an event only, never as an opt-in.
  if (child) return { events: 1, childDecisions: 1 };
  const counters: Record<string, number> = { events: 1, decisions: 1, [decisionKindOf(categories)]: 1 };
  for (const category of optionalCategories) {
    const value = categories[category];
    if (value === undefined) continue;
    counters[dailyCounter.seen(category)] = 1;
    if (value) counters[dailyCounter.optIn(category)] = 1;
  }
  return counters;
};

export const serverEventCounters = (entry: Pick<ServerEventEntry, 'fired' | 'firedWithoutConsent'>): Record<string, number> => ({
  serverEvents: 1,
  serverFired: entry.fired ? 1 : 0,
  serverSuppressed: entry.fired ? 0 : 1,
  serverFiredWithoutConsent: entry.firedWithoutConsent ? 1 : 0,
});
