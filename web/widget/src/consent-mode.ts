/**
 * Google Consent Mode v2. Commands go where gtag.js reads them, window.dataLayer (the one global
 * the widget touches besides window.cms, and only because Google's tags read it), as the
 * Arguments objects gtag() itself pushes; a page's own gtag() is used when it defines one.
 */
type Win = Window & { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };

function gtag(..._args: unknown[]): void {
  const win = window as Win;
  if (typeof win.gtag === 'function') {
    win.gtag(..._args);
    return;
  }
  // eslint-disable-next-line prefer-rest-params -- gtag.js accepts Arguments objects only
  (win.dataLayer = win.dataLayer || []).push(arguments);
}

const types: Record<string, string[]> = {
  ANALYTICS: ['analytics_storage'],
  MARKETING: ['ad_storage', 'ad_user_data', 'ad_personalization'],
  FUNCTIONAL: ['functionality_storage', 'personalization_storage'],
};

const stateOf = (granted: Record<string, boolean>): Record<string, string> => {
  const state: Record<string, string> = {};
  for (const category in types) for (const type of types[category]!) state[type] = granted[category] ? 'granted' : 'denied';
  return state;
};

/** Before anything else: every type denied but security storage, and tags wait for the banner. */
export const consentDefault = (): void => gtag('consent', 'default', { ...stateOf({}), security_storage: 'granted', wait_for_update: 500 });

export const consentUpdate = (granted: Record<string, boolean>): void => gtag('consent', 'update', stateOf(granted));
