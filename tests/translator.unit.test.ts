import { afterEach, describe, expect, it } from 'vitest';
import { languageCodes, type LanguageCode } from '../shared/i18n/languages';
import { mapWithConcurrency } from '../shared/concurrency';
import { buildTranslateRequest, createAmazonTranslator } from '../shared/translation/amazon-translator';
import { untranslatableLanguages } from '../shared/translation/coverage';
import { localTranslator } from '../shared/translation/local-translator';
import { setTranslator, translatorFor } from '../shared/translation/select';
import { draftTranslation, type Translator } from '../shared/translation/translator';

/** Records its calls; supports only the languages it is given. */
const fakeTranslator = (supported: LanguageCode[]) => {
  const calls: { texts: string[]; target: LanguageCode }[] = [];
  const translator: Translator = {
    name: 'fake',
    supports: (language) => supported.includes(language),
    translate: async (texts, target) => {
      calls.push({ texts, target });
      return texts.map((text) => text.toUpperCase());
    },
  };
  return { translator, calls };
};

describe('local translator', () => {
  it('marks each text with the target code, in order, the same every time', async () => {
    const first = await localTranslator.translate(['Hello', 'Withdraw consent'], 'HI');
    expect(first).toEqual(['[HI machine draft] Hello', '[HI machine draft] Withdraw consent']);
    expect(await localTranslator.translate(['Hello', 'Withdraw consent'], 'HI')).toEqual(first);
    expect(await localTranslator.translate(['Hello'], 'TA')).toEqual(['[TA machine draft] Hello']);
  });
  it('rejects a language outside its coverage, as Amazon Translate would', async () => {
    await expect(localTranslator.translate(['Hello'], 'BRX')).rejects.toThrow(/BRX/);
  });
});

describe('draftTranslation', () => {
  it('drafts every non-empty value in one call, keeping keys and passing empty strings through', async () => {
    const { translator, calls } = fakeTranslator(['HI']);
    const result = await draftTranslation(translator, { title: 'Privacy notice', intro: '', rights: 'Your rights' }, 'HI');
    expect(result).toEqual({
      texts: { title: 'PRIVACY NOTICE', intro: '', rights: 'YOUR RIGHTS' },
      source: 'MACHINE_DRAFTED',
    });
    expect(calls).toEqual([{ texts: ['Privacy notice', 'Your rights'], target: 'HI' }]);
  });
  it('keeps the English texts, marked NEEDS_TRANSLATION, without calling a translator that lacks the language', async () => {
    const { translator, calls } = fakeTranslator(['HI']);
    const english = { title: 'Privacy notice', rights: 'Your rights' };
    const result = await draftTranslation(translator, english, 'SAT');
    expect(result).toEqual({ texts: english, source: 'NEEDS_TRANSLATION' });
    expect(calls).toHaveLength(0);
  });
  it('refuses a translator answer that does not line up with the texts sent', async () => {
    const short: Translator = { name: 'short', supports: () => true, translate: async () => ['only one'] };
    await expect(draftTranslation(short, { a: 'One', b: 'Two' }, 'HI')).rejects.toThrow(/1 texts for 2/);
  });
});

describe('Amazon Translate adapter', () => {
  it('builds an English-source request with the ISO code of the target', () => {
    expect(buildTranslateRequest('Hello', 'HI')).toEqual({ Text: 'Hello', SourceLanguageCode: 'en', TargetLanguageCode: 'hi' });
    expect(buildTranslateRequest('Hello', 'PA').TargetLanguageCode).toBe('pa');
    expect(buildTranslateRequest('Hello', 'UR').TargetLanguageCode).toBe('ur');
  });
  it('rejects an unsupported target before any request is made', async () => {
    await expect(createAmazonTranslator().translate(['Hello'], 'NE')).rejects.toThrow(/NE/);
  });
  it('maps in input order with no more calls in flight than the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapWithConcurrency([30, 5, 20, 1, 10, 2, 15], 3, async (ms) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, ms));
      inFlight--;
      return ms * 2;
    });
    expect(results).toEqual([60, 10, 40, 2, 20, 4, 30]);
    expect(peak).toBe(3);
  });
});

describe('language coverage', () => {
  it('is the same for both translators: English and the ten languages Amazon Translate lists', () => {
    const amazon = createAmazonTranslator();
    const supportedBy = (translator: Translator) => languageCodes.filter((code) => translator.supports(code));
    const expected = ['EN', 'BN', 'GU', 'HI', 'KN', 'ML', 'MR', 'PA', 'TA', 'TE', 'UR'];
    expect(supportedBy(localTranslator)).toEqual(expected);
    expect(supportedBy(amazon)).toEqual(expected);
    expect(new Set(languageCodes.filter((code) => !expected.includes(code)))).toEqual(untranslatableLanguages);
  });
});

describe('translatorFor', () => {
  const stage = process.env.CMS_STAGE;
  afterEach(() => {
    process.env.CMS_STAGE = stage;
    setTranslator(undefined);
  });

  it('uses the local translator on the local stack', () => {
    process.env.CMS_STAGE = 'local';
    setTranslator(undefined);
    expect(translatorFor().name).toBe('local');
  });
  it('uses Amazon Translate outside the local stack, built once', () => {
    process.env.CMS_STAGE = 'aws';
    setTranslator(undefined);
    const first = translatorFor();
    expect(first.name).toBe('amazon-translate');
    expect(translatorFor()).toBe(first);
  });
});
