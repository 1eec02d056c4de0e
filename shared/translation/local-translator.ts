import type { LanguageCode } from '../i18n/languages';
import { machineTranslatable } from './coverage';
import type { Translator } from './translator';

/**
 * Deterministic stand-in for the local stack: drafts are visibly marked and need no network. It
 * translates nothing: `[TA machine draft] Accept all` shows where a draft would go and that
 * drafting works; the dashboard says so wherever a DPO drafts (docs/words.md).
 */
export const localTranslator: Translator = {
  name: 'local',
  standIn: true,
  supports: machineTranslatable,
  translate: async (texts: string[], target: LanguageCode): Promise<string[]> => {
    // Mirrors Amazon Translate rejecting a language pair it lacks.
    if (!machineTranslatable(target)) throw new Error(`The local translator does not support ${target}`);
    return texts.map((text) => `[${target} machine draft] ${text}`);
  },
};
