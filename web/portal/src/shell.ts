import { h } from './dom';
import { label, type LabelKey, type PageWords } from './labels';
import { formatTime } from '../../../shared/time/format';
import { directionOf, languageName, languageTag } from './languages';

export interface PageState {
  language: string;
  /** The languages the switcher offers; none is shown for fewer than two. */
  languages: readonly string[];
  /** The tenant's words in `language`, once loaded. */
  words?: PageWords | undefined;
}

/**
 * A label as a node: plain text in the page's language, or, where English stands in (the tenant
 * shows no word of its own there), a span marked lang="en" (read with the right voice, laid out
 * left to right inside RTL pages).
 */
export const t = (state: PageState, key: LabelKey, values?: Record<string, string | number>): Node => {
  const { text, language } = label(state.words, state.language, key, values);
  if (language === state.language) return document.createTextNode(text);
  return h('span', { lang: languageTag(language), dir: directionOf(language) }, text);
};

/**
 * Loads the tenant's words in the page's language into `state` (English stands in, marked, until
 * they arrive or if they cannot be had); false when the language changed meanwhile.
 */
export const loadWords = async (state: PageState, wordsIn: (language: string) => Promise<PageWords | undefined>): Promise<boolean> => {
  const language = state.language;
  const words = await wordsIn(language);
  if (state.language !== language) return false;
  state.words = words;
  return true;
};

/** Redraws without moving the focus: whatever had it (the email box being typed in, the switcher) keeps it. */
export const redraw = (render: (focus: 'keep') => void): void => {
  const focused = document.activeElement?.id;
  render('keep');
  if (focused) document.getElementById(focused)?.focus();
};

const switcher = (state: PageState, onLanguage: (code: string) => void): HTMLElement | null => {
  if (state.languages.length < 2) return null;
  const select = h('select', { id: 'language' }, ...state.languages.map((code) => h('option', { value: code, lang: languageTag(code), selected: code === state.language }, languageName(code))));
  select.addEventListener('change', () => onLanguage(select.value));
  return h('div', {}, h('label', { for: 'language', class: 'block' }, t(state, 'portal.language')), select);
};

/**
 * Puts one view on the page: the root's lang and dir follow the language, the title follows the
 * heading. After a change of view focus moves to the heading, so screen readers announce the new
 * content; after a change of language it stays on the switcher, which was redrawn.
 */
export const mount = (
  state: PageState,
  view: { title: Node; body: Node[] },
  options: { onLanguage: (code: string) => void; focus: 'heading' | 'language' | 'keep' },
): void => {
  const root = document.documentElement;
  root.lang = languageTag(state.language);
  root.dir = directionOf(state.language);
  const heading = h('h1', { tabindex: '-1' }, view.title);
  document.title = heading.textContent ?? '';
  const app = document.getElementById('app');
  if (!app) return;
  app.replaceChildren(h('div', { class: 'topbar' }, heading, switcher(state, options.onLanguage)), ...view.body);
  if (options.focus === 'heading') heading.focus();
  if (options.focus === 'language') document.getElementById('language')?.focus();
};

/**
 * A time as people read it in that language, through the service's one formatter
 * (shared/time/format.ts): India's zone (the public pages' answers do not name a tenant's own
 * zone yet), to the minute, with UTC beside, as the mails write it; the exact instant kept in the markup.
 */
export const timeOf = (state: PageState, iso: string): HTMLTimeElement => {
  const shown = formatTime(iso, { locale: `${languageTag(state.language)}-IN`, utc: true });
  return h('time', { datetime: iso }, shown);
};
