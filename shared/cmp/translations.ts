import { nowIso } from '../clock';
import { ConflictError } from '../errors';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { translatorFor } from '../translation/select';
import { draftTranslation } from '../translation/translator';
import { emptyDocument, type CmpDocument } from './document';
import { defaultLabelSet, type BannerLabels, type LabelSet } from './labels';
import { changeDocument, requireCmpTenant } from './service';
import { readDocument } from './store';

const viewOf = (language: string, set: LabelSet) => ({ language, status: set.status, labels: set.labels, updatedAt: set.updatedAt });

/** English first, then by code. */
const listOf = (document: CmpDocument) =>
  Object.entries(document.labelSets)
    .sort(([a], [b]) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)))
    .map(([language, set]) => viewOf(language, set));

export const listLabelSets = async (tenantId: string) => {
  const tenant = await requireCmpTenant(tenantId);
  return listOf((await readDocument(tenantId)) ?? emptyDocument(tenant));
};

/** The tenant's English labels (its own edits over the defaults): what every draft translates. */
const englishOf = (document: CmpDocument | undefined): BannerLabels => (document?.labelSets.en ?? defaultLabelSet()).labels;

const upperCode = (language: string) => language.toUpperCase() as LanguageCode;

/** Drafts `languages` from the English labels, through the same Translator port as notices. */
const draft = async (english: BannerLabels, languages: string[]) => {
  const translator = translatorFor();
  const drafted = await Promise.all(
    languages.map(async (language) => {
      const { texts, source } = await draftTranslation(translator, english, upperCode(language));
      const set: LabelSet = { labels: texts as BannerLabels, status: source === 'MACHINE_DRAFTED' ? 'DRAFT' : 'NEEDS_TRANSLATION', updatedAt: nowIso() };
      return [language, set] as const;
    }),
  );
  return { translator: translator.name, drafted };
};

export const draftLabelSet = async (tenantId: string, language: string, replaceReviewed: boolean) => {
  await requireCmpTenant(tenantId);
  const { drafted } = await draft(englishOf(await readDocument(tenantId)), [language]);
  const [, set] = drafted[0]!;
  await changeDocument(
    tenantId,
    (current) => {
      if (current.labelSets[language]?.status === 'REVIEWED' && !replaceReviewed) {
        throw new ConflictError(`The ${language} labels were reviewed by a person; send replaceReviewed true to draft over them`);
      }
      return { ...current, labelSets: { ...current.labelSets, [language]: set } };
    },
    'language',
  );
  return viewOf(language, set);
};

/** Every scheduled language but those a person reviewed, in one write. */
export const draftAllLabelSets = async (tenantId: string) => {
  await requireCmpTenant(tenantId);
  const document = await readDocument(tenantId);
  const all = scheduledLanguageCodes.map((code) => code.toLowerCase());
  const targets = all.filter((language) => document?.labelSets[language]?.status !== 'REVIEWED');
  const { translator, drafted } = await draft(englishOf(document), targets);
  let keptReviewed: string[] = [];
  await changeDocument(
    tenantId,
    (current) => {
      const labelSets = { ...current.labelSets };
      keptReviewed = all.filter((language) => current.labelSets[language]?.status === 'REVIEWED');
      for (const [language, set] of drafted) if (!keptReviewed.includes(language)) labelSets[language] = set;
      return { ...current, labelSets };
    },
    'labels',
  );
  return {
    translator,
    languages: drafted.filter(([language]) => !keptReviewed.includes(language)).map(([language, set]) => ({ language, status: set.status })),
    keptReviewed,
  };
};

/** A person's labels: merged over the language's current set (or the English), status REVIEWED. */
export const saveLabelSet = async (tenantId: string, language: string, labels: Partial<BannerLabels>) => {
  let saved: LabelSet | undefined;
  await changeDocument(
    tenantId,
    (current) => {
      const base = current.labelSets[language]?.labels ?? englishOf(current);
      saved = { labels: { ...base, ...labels }, status: 'REVIEWED', updatedAt: nowIso() };
      return { ...current, labelSets: { ...current.labelSets, [language]: saved } };
    },
    'labels',
  );
  return viewOf(language, saved!);
};
