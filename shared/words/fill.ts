/** `{name}` in a word: a value filled in at run time (a tenant's name, a date, a link). A pure module: the pages bundle it. */
const slot = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The slots a text uses, sorted, each once: a translation must keep exactly these. */
export const placeholdersOf = (text: string): string[] => [...new Set(Array.from(text.matchAll(slot), (match) => match[1]!))].sort();

/** A word with its slots filled in (as text, never markup); a slot without a value is left as written. */
export const fillWords = (template: string, values: Readonly<Record<string, string | number>> = {}): string =>
  template.replace(slot, (written, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : written));
