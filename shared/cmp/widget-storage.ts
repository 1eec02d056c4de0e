/**
 * Where the widget keeps the visitor's own choices and what it needs to show the banner: strictly
 * necessary by nature (the record of a consent decision cannot itself wait for consent). The
 * widget names its storage from here, and the tracker scanner recognises it by the same names.
 */
export const widgetStorage = {
  /** First-party cookie: the cookie-banner decision. */
  consentCookie: 'cms_consent',
  /** localStorage: the notice decision (record id, proof hash, version), per tenant. */
  noticeDecision: (tenantKey: string) => `cms_notice_${tenantKey}`,
  /** localStorage: the language the visitor chose. */
  language: 'cms_lang',
} as const;

/** localStorage: the cookie-banner config cache, per tenant, that widgets kept before the edge-cached bootstrap; still in returning visitors' storage. */
export const formerConfigCache = (tenantId: string) => `cms_cmp_${tenantId}`;

export const isWidgetStorageName = (name: string): boolean =>
  name === widgetStorage.consentCookie || name === widgetStorage.language || name.startsWith(formerConfigCache('')) || name.startsWith(widgetStorage.noticeDecision(''));
