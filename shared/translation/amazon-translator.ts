import { TranslateClient, TranslateTextCommand, type TranslateTextCommandInput } from '@aws-sdk/client-translate';
import { config } from '../config';
import { isoOf, type LanguageCode } from '../i18n/languages';
import { machineTranslatable } from './coverage';
import type { Translator } from './translator';

/** The request for one text; kept apart from sending so it can be checked without a network. */
export const buildTranslateRequest = (text: string, target: LanguageCode): TranslateTextCommandInput => ({
  Text: text,
  SourceLanguageCode: 'en',
  TargetLanguageCode: isoOf(target),
});

/** Maps in input order with at most `limit` calls in flight. */
export const mapWithConcurrency = async <T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

/** TranslateText takes one text per call, so a batch fans out, bounded to stay under its throttle. */
export const createAmazonTranslator = (concurrency = 4): Translator => {
  let client: TranslateClient | undefined;
  const clientOf = (): TranslateClient => (client ??= new TranslateClient({ region: config.region }));
  return {
    name: 'amazon-translate',
    supports: machineTranslatable,
    translate: async (texts, target) => {
      if (!machineTranslatable(target)) throw new Error(`Amazon Translate does not support ${target}`);
      return mapWithConcurrency(texts, concurrency, async (text) => {
        const output = await clientOf().send(new TranslateTextCommand(buildTranslateRequest(text, target)));
        return output.TranslatedText ?? '';
      });
    },
  };
};
