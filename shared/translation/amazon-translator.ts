import type { TranslateTextCommandInput } from '@aws-sdk/client-translate';
import { translateText } from '../aws/translate';
import { mapWithConcurrency } from '../concurrency';
import { isoOf, type LanguageCode } from '../i18n/languages';
import { machineTranslatable } from './coverage';
import type { Translator } from './translator';

/** The request for one text; kept apart from sending so it can be checked without a network. */
export const buildTranslateRequest = (text: string, target: LanguageCode): TranslateTextCommandInput => ({
  Text: text,
  SourceLanguageCode: 'en',
  TargetLanguageCode: isoOf(target),
});

/** TranslateText takes one text per call, so a batch fans out, bounded to stay under its throttle. */
export const createAmazonTranslator = (concurrency = 4): Translator => {
  return {
    name: 'amazon-translate',
    supports: machineTranslatable,
    translate: async (texts, target) => {
      if (!machineTranslatable(target)) throw new Error(`Amazon Translate does not support ${target}`);
      return mapWithConcurrency(texts, concurrency, (text) => translateText(buildTranslateRequest(text, target)));
    },
  };
};
