import { engineConfig } from '../config';
import { createAmazonTranslator } from './amazon-translator';
import { localTranslator } from './local-translator';
import type { Translator } from './translator';

/*
 * Which Translator the process uses: the composition of the port (translator.ts) with its two
 * implementations, kept apart from the port so that neither implementation imports a module that
 * imports it back.
 */
let instance: Translator | undefined;

/** One translator per process, chosen on first use so tests can set the stage first. */
export const translatorFor = (): Translator => (instance ??= engineConfig.isLocal ? localTranslator : createAmazonTranslator());

/** Tests swap in a fake, or pass undefined to choose again from the config. */
export const setTranslator = (translator: Translator | undefined): void => {
  instance = translator;
};
