import { consentDefault } from './consent-mode';
import { button, defaultTheme, guarded, h, mountUi } from './dom';
import { emit, on, readEmbed } from './env';
import { knownLanguages, pickLanguage } from './i18n';
import { fetchBootstrap, type Bootstrap } from './bootstrap';
import { direction, type Context, type Identity } from './context';
import { cookieBanner } from './cookie-banner';
import { cookieConsent } from './cookies';
import { noticeBanner } from './notice';

/**
 * cms.js: the notice banner and the cookie banner behind one <script> tag. Nothing here may break
 * the host page: every step is caught, and with the API unreachable no banner is shown and every
 * non-necessary category stays denied (Consent Mode's default).
 */
consentDefault();

type Notice = ReturnType<typeof noticeBanner>;
type Cookies = { consent: ReturnType<typeof cookieConsent>; banner: ReturnType<typeof cookieBanner> };
const loaded: { notice?: Notice; cookies?: Cookies; context?: Context } = {};

const getConsent = () => ({ notice: loaded.notice?.state() ?? null, cookies: loaded.cookies?.consent.state() ?? null });

let pendingIdentity: Identity | undefined;
const hex64 = /^[0-9a-f]{64}$/;
const api = {
  getConsent,
  showNotice: guarded(() => loaded.notice?.show(!loaded.notice.needsPrompt())),
  showCookiePreferences: guarded(() => loaded.cookies?.banner.show(true)),
  /**
   * Attributes later notice decisions to a principal. Only a SHA-256 hex digest is accepted: raw
   * identifiers never leave the browser. identifierSignature, the tenant server's HMAC with a secret
   * key of `<identifierHash>.<identifierSignedAt>` (the time it signed, Unix seconds), makes the
   * records VERIFIED for 15 minutes after signing; without it they are CLAIMED.
   */
  identify: (input: { identifierHash?: unknown; identifierSignature?: unknown; identifierSignedAt?: unknown }) => {
    const hash = input && input.identifierHash;
    const signature = input && input.identifierSignature;
    const signedAt = input && input.identifierSignedAt;
    if (typeof hash !== 'string' || !hex64.test(hash)) return false;
    // A signature comes with the time it was signed, or neither does.
    if (signature !== undefined && (typeof signature !== 'string' || !hex64.test(signature) || !Number.isSafeInteger(signedAt) || (signedAt as number) < 0)) return false;
    if (signature === undefined && signedAt !== undefined) return false;
    pendingIdentity = { identifierHash: hash, ...(signature ? { identifierSignature: signature as string, identifierSignedAt: signedAt as number } : {}) };
    if (loaded.context) loaded.context.identity = pendingIdentity;
    return true;
  },
  on,
};
(window as Window & { cms?: typeof api }).cms = api;

const boot = async () => {
  const embed = readEmbed();
  if (!embed) return;
  // One request for both banners, in the visitor's language among all the widget knows (the
  // cookie config's theme and words serve the notice banner too, even with data-cookies="off").
  const asked = pickLanguage(knownLanguages, embed.language);
  const first = await fetchBootstrap(embed, asked);
  const notice = (embed.notice && first?.notice) || undefined;
  const config = first?.cmp || undefined;
  const cookiesOn = embed.cookies && config;
  // An async tag in <head> can run before <body> exists; banners and blocked tags need the parsed page.
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  if (first && (notice || cookiesOn)) {
    const { words } = first;
    /** Another language's words and notice translation, merged in (the translation only of the notice shown). */
    const learn = (next: Bootstrap | undefined) => {
      for (const code in next?.words) words[code] = { ...words[code], ...next!.words[code] };
      if (notice && next?.notice?.id === notice.id) Object.assign(notice.translations, next.notice.translations);
    };
    const available = [...(notice?.availableLanguages ?? []), ...((cookiesOn && config.languages) || []).map((code) => code.toUpperCase())];
    const own = (language: string, key: string): string | undefined => words[language]?.[key];
    const english = (key: string) => own('EN', key) ?? key;
    const context: Context = {
      embed,
      ui: mountUi(config?.bannerTheme ?? defaultTheme, embed.position ?? config?.bannerTheme.position ?? 'bottom-right'),
      language: pickLanguage(available, embed.language),
      identity: pendingIdentity,
      labels: (key) => own(context.language, key) ?? english(key),
      // English standing in for a word the language does not show is marked as English (read with the right voice, left to right).
      t: (key) => own(context.language, key) ?? (context.language === 'EN' ? english(key) : h('span', { lang: 'en', dir: 'ltr' }, english(key))),
      load: async (code) => learn(await fetchBootstrap(embed, code)),
      name: (code) => notice?.languageNames?.[code] ?? config?.languageNames?.[code] ?? code,
      onLanguage: [],
    };
    // The tenant offers a language the visitor prefers to the one asked for: its words first.
    if (context.language !== asked) await context.load(context.language);
    loaded.context = context;
    let cookies: Parameters<typeof noticeBanner>[2];
    if (cookiesOn) {
      const consent = cookieConsent(embed, config);
      loaded.cookies = { consent, banner: cookieBanner(context, config, consent) };
      // A returning visitor's grants apply on every page, before any banner.
      if (!consent.needsPrompt()) consent.applyGrants();
      // "Withdraw all" refuses every optional category as "Reject all" does; with no cookie decision yet nothing is granted, and the cookie banner still asks.
      cookies = { preferences: api.showCookiePreferences, optional: consent.offered.filter((category) => !consent.locked(category)), reject: () => consent.state() && consent.decide({}) };
    }
    if (notice) loaded.notice = noticeBanner(context, notice, cookies);
    if (loaded.notice?.needsPrompt()) loaded.notice.show(false);
    if (loaded.cookies?.consent.needsPrompt()) loaded.cookies.banner.show(false);
    // Withdrawing must be as easy as consenting: this control stays on every page, in the language shown.
    const corner = () => {
      const { corner: element } = context.ui;
      element.lang = context.language.toLowerCase();
      element.dir = direction(context);
      element.replaceChildren(button(context.t('privacyChoices'), () => (loaded.notice ? api.showNotice() : api.showCookiePreferences())));
    };
    corner();
    context.onLanguage.push(corner);
  }
  emit('ready', getConsent());
};

boot().catch(() => {
  // Never the host page's problem: without the widget every optional category stays denied.
});
