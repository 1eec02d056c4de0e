import { TranslateClient, TranslateTextCommand, type TranslateTextCommandInput } from '@aws-sdk/client-translate';
import { clientOptions, lazyClient } from './clients';

/** Amazon Translate through the SDK's client, made on first use: machine drafts of label sets (shared/translation/amazon-translator.ts). */
const translate = /* @__PURE__ */ lazyClient('translate', () => new TranslateClient(clientOptions(undefined)));

export const translateText = async (input: TranslateTextCommandInput): Promise<string> => {
  return (await (await translate()).send(new TranslateTextCommand(input))).TranslatedText ?? '';
};
