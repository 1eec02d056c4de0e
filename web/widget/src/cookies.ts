import { widgetStorage } from '../../../shared/cmp/widget-storage';
import { activate, deleteCookie } from './blocking';
import { consentUpdate } from './consent-mode';
import { call, emit, type Embed } from './env';

/** The cookie banner's part of the bootstrap (GET /widget/bootstrap `cmp`). */
export interface CmpConfig {
  categories: Record<string, { enabled: boolean; toggleable: boolean }>;
  defaultDeny: boolean;
  childDirected: boolean;
  bannerTheme: { position: string; primaryColor: string; backgroundColor: string; textColor: string; borderRadius: number; showLogo: boolean };
  /** The languages the banner offers (each has words). */
  languages: string[];
  reconsentDays: number;
  trackers: { domain: string; cookieName?: string; category: string }[];
  /** The languages named in themselves (absent from a configuration last changed before the field). */
  languageNames?: Record<string, string>;
  showPoweredBy: boolean;
  brandName: string | null;
  logoUrl: string | null;
  revision: number;
}

/** What the cms_consent cookie holds: visitor id, categories, config revision, time, and the offered categories it answered. */
interface Stored {
  v: string;
  c: Record<string, boolean>;
  r: number;
  t: string;
  k: string;
}

const cookieName = widgetStorage.consentCookie;
export const categoryOrder = ['NECESSARY', 'FUNCTIONAL', 'ANALYTICS', 'MARKETING', 'UNCLASSIFIED'];

const readCookie = (): Stored | undefined => {
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${cookieName}=([^;]*)`));
  try {
    return match ? (JSON.parse(decodeURIComponent(match[1]!)) as Stored) : undefined;
  } catch {
    return undefined;
  }
};

export const gpcOn = (): boolean => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

/** The cookie consent logic: which categories are offered, what is granted, and what a decision does on the page. */
export const cookieConsent = (embed: Embed, config: CmpConfig) => {
  // Child-directed sites never offer ANALYTICS or MARKETING (DPDP Act s. 9), whatever else is configured.
  const offered = categoryOrder.filter(
    (category) => category !== 'NECESSARY' && config.categories[category]?.enabled && !(config.childDirected && (category === 'ANALYTICS' || category === 'MARKETING')),
  );
  const locked = (category: string) => category === 'NECESSARY' || !config.categories[category]?.toggleable;
  const offeredKey = offered.join();
  let stored = readCookie();
  if (stored && (stored.k !== offeredKey || Date.parse(stored.t) < Date.now() - config.reconsentDays * 86_400_000)) stored = undefined;

  const granted = (): Record<string, boolean> => {
    const result: Record<string, boolean> = { NECESSARY: true };
    for (const category of offered) result[category] = locked(category) || !!stored?.c[category];
    return result;
  };

  /** Where the switches start before any decision: off under defaultDeny, MARKETING off under GPC. */
  const initial = (category: string): boolean => locked(category) || (!config.defaultDeny && !(category === 'MARKETING' && gpcOn()));

  /** Grants take effect on the page: Consent Mode is updated first, so the tags then released see it. */
  const applyGrants = () => {
    const now = granted();
    consentUpdate(now);
    activate(now);
  };

  const decide = async (chosen: Record<string, boolean>) => {
    const before = stored && granted();
    const hadAny = !!before && offered.some((category) => !locked(category) && before[category]);
    const categories: Record<string, boolean> = { NECESSARY: true };
    for (const category of offered) categories[category] = locked(category) || !!chosen[category];
    const anyNow = offered.some((category) => !locked(category) && categories[category]);
    const event = !stored ? 'GIVEN' : hadAny && !anyNow ? 'WITHDRAWN' : 'UPDATED';
    const reply = await call<{ consentRecordId: string }>(`${embed.apiBase}/cmp/web-event`, {
      tenantId: embed.tenantId,
      event: `COOKIE_CONSENT_${event}`,
      categories,
      widgetVersion: 'cms.js v1',
      consentRecordId: stored?.v || undefined,
      ...(embed.minor && { principalStatus: 'CHILD' }),
    });
    // The choice holds on this page even when it could not be posted: a refusal must never wait for the network.
    stored = { v: reply.data?.consentRecordId ?? stored?.v ?? '', c: categories, r: config.revision, t: new Date().toISOString(), k: offeredKey };
    const secure = location.protocol === 'https:' ? ';secure' : '';
    document.cookie = `${cookieName}=${encodeURIComponent(JSON.stringify(stored))};max-age=${config.reconsentDays * 86_400};path=/;samesite=lax${secure}`;
    for (const category of offered) {
      if (before?.[category] && !categories[category]) {
        for (const tracker of config.trackers) if (tracker.category === category && tracker.cookieName) deleteCookie(tracker.cookieName);
      }
    }
    applyGrants();
    const detail = { cookies: state() };
    emit(!before ? 'consent' : event === 'WITHDRAWN' ? 'withdraw' : 'change', detail);
  };

  const state = () => stored && { visitorId: stored.v, categories: granted(), decidedAt: stored.t };

  return { offered, locked, initial, granted, decide, state, applyGrants, needsPrompt: () => !stored };
};

export type CookieConsent = ReturnType<typeof cookieConsent>;
