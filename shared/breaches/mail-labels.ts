import { breachMailWords } from '../words/mail-words';

/**
 * The words of a breach intimation mail around the tenant's own: the principal words catalogue's
 * breach-mail keys (shared/words/mail-words.ts), named here without their `mail.breach.` prefix,
 * as an intimation's `labels` overrides name them.
 */
const prefix = 'mail.breach.';
type GlobalKey = keyof typeof breachMailWords;
export type IntimationLabelKey = GlobalKey extends `${typeof prefix}${infer Key}` ? Key : never;
export type IntimationLabels = Record<IntimationLabelKey, string>;

export const intimationLabelKeys = Object.keys(breachMailWords).map((key) => key.slice(prefix.length)) as [IntimationLabelKey, ...IntimationLabelKey[]];
export const globalOf = (key: IntimationLabelKey) => `${prefix}${key}` as GlobalKey;

/** The catalogue's English of a label. */
export const defaultIntimationLabel = (key: IntimationLabelKey): string => breachMailWords[globalOf(key)];
