/**
 * Where the widget keeps the visitor's own choices and what it needs to show the banner: strictly
 * necessary by nature (the record of a consent decision cannot itself wait for consent). The
 * widget names its storage from here, and the tracker scanner recognises it by the same names.
 */
export const widgetStorage = {
  /** First-party cookie: the cookie-banner decision. */
  consentCookie: 'cms_consent',
  /** localStorage: the cookie-banner config cache, per tenant. */
  configCache: (tenantId: string) => `cms_cmp_${tenantId}`,
  /** localStorage: the notice decision (record id, proof hash, version), per tenant. */
  noticeDecision: (tenantKey: string) => `cms_notice_${tenantKey}`,
  /** localStorage: the language the visitor chose. */
  language: 'cms_lang',
} as const;

export const isWidgetStorageName = (name: string): boolean =>
  name === widgetStorage.consentCookie || name === widgetStorage.language || name.startsWith(widgetStorage.configCache('')) || name.startsWith(widgetStorage.noticeDecision(''));
