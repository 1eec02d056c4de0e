import type { Embed } from './env';
import type { Ui } from './dom';
import { h } from './dom';
import { directionOf, saveLanguage } from './i18n';

/** The visitor as the page identified them (cms.identify): sent with every notice decision. */
export interface Identity {
  identifierHash: string;
  identifierSignature?: string;
  /** When the tenant's server signed, Unix seconds: part of what the signature covers. */
  identifierSignedAt?: number;
}

/** What both banners share: the embed, the UI, the language shown and the visitor's identity. */
export interface Context {
  embed: Embed;
  ui: Ui;
  language: string;
  identity: Identity | undefined;
  /** The tenant's word in the language shown, else its English one: for attributes. */
  labels: (key: string) => string;
  /** The same as page content: English standing in is a span marked lang="en". */
  t: (key: string) => string | HTMLElement;
  /** Fetches a language's words and notice translation (the bootstrap carries one language; the browser revalidates a repeat). */
  load: (code: string) => Promise<void>;
  /** A language named in itself, as the notice or the cookie configuration names it (else its code). */
  name: (code: string) => string;
  onLanguage: (() => void)[];
}

export const setLanguage = async (context: Context, code: string): Promise<void> => {
  await context.load(code);
  context.language = code;
  saveLanguage(code);
  for (const rerender of context.onLanguage) rerender();
};

export const direction = (context: Context): string => directionOf(context.language);

/** The visible language switcher over the languages one banner offers; hidden when there is only one. */
export const languageSwitcher = (context: Context, available: string[], id: string): HTMLElement | false =>
  available.length > 1 &&
  h(
    'select',
    { id: `${id}-lang`, className: 'lg', 'aria-label': context.labels('language'), onchange: (event: Event) => setLanguage(context, (event.target as HTMLSelectElement).value) },
    ...available.map((code) => h('option', { value: code, selected: code === context.language, lang: code.toLowerCase() }, context.name(code))),
  );
