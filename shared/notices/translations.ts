import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { ConflictError, NotFoundError } from '../errors';
import { scheduledLanguageCodes, type LanguageCode } from '../i18n/languages';
import { getPurposes } from '../purposes/store';
import { translatorFor } from '../translation/select';
import { draftTranslation } from '../translation/translator';
import type { NoticeTranslation } from './notice';
import type { translationInput } from './schemas';
import { requireDraft, requireNotice, writeDraft } from './store';
import { configuredPurposes } from './views';

type TranslationInput = z.output<typeof translationInput>;

const translationView = (language: string, translation: NoticeTranslation) => ({ language, ...translation });

export const listTranslations = async (tenantId: string, noticeId: string) => {
  const notice = await requireNotice(tenantId, noticeId);
  return Object.entries(notice.translations).map(([language, translation]) => translationView(language, translation!));
};

/** Adds a language; an existing one is a CONFLICT (PUT changes it). Drafts only. */
export const addTranslation = async (tenantId: string, noticeId: string, language: LanguageCode, input: TranslationInput) => {
  const notice = await requireDraft(tenantId, noticeId);
  if (notice.translations[language]) throw new ConflictError(`A ${language} translation exists; use PUT to change it`);
  const translation: NoticeTranslation = { ...input, source: 'MANUAL', updatedAt: nowIso() };
  await writeDraft(tenantId, noticeId, notice.revision, {
    set: { [`translations.${language}`]: translation, updatedAt: translation.updatedAt },
  });
  return translationView(language, translation);
};

/** Changes the given fields of an existing language; the result counts as a person's text. */
export const updateTranslation = async (tenantId: string, noticeId: string, language: LanguageCode, input: TranslationInput) => {
  const notice = await requireDraft(tenantId, noticeId);
  const current = notice.translations[language];
  if (!current) throw new NotFoundError(`${language} translation`);
  const translation: NoticeTranslation = {
    ...current,
    ...input,
    // Field by field inside each purpose too: a PUT leaves out what it does not change.
    purposes: Object.fromEntries(
      [...new Set([...Object.keys(current.purposes ?? {}), ...Object.keys(input.purposes ?? {})])].map((purposeId) => [
        purposeId,
        { ...current.purposes?.[purposeId], ...input.purposes?.[purposeId] },
      ]),
    ),
    source: 'MANUAL',
    updatedAt: nowIso(),
  };
  await writeDraft(tenantId, noticeId, notice.revision, {
    set: { [`translations.${language}`]: translation, updatedAt: translation.updatedAt },
  });
  return translationView(language, translation);
};

export const removeTranslation = async (tenantId: string, noticeId: string, language: LanguageCode) => {
  const notice = await requireDraft(tenantId, noticeId);
  const current = notice.translations[language];
  if (!current) throw new NotFoundError(`${language} translation`);
  await writeDraft(tenantId, noticeId, notice.revision, { set: { updatedAt: nowIso() }, remove: [`translations.${language}`] });
  return translationView(language, current);
};

/**
 * Machine-drafts every scheduled language a person has not written, through the Translator
 * port. Languages the translator lacks keep the English text, marked NEEDS_TRANSLATION, and are
 * not offered to the public until a person translates them. All drafts land in one write.
 */
export const autoTranslate = async (tenantId: string, noticeId: string) => {
  const notice = await requireDraft(tenantId, noticeId);
  const purposes = configuredPurposes(notice, await getPurposes(tenantId, notice.purposeIds)).map(({ purpose }) => purpose);
  const english: Record<string, string> = {
    title: notice.title,
    introText: notice.introText,
    rightsText: notice.rightsText,
    complaintText: notice.complaintText,
    ...Object.fromEntries(purposes.flatMap((purpose) => [[`purpose.name.${purpose.purposeId}`, purpose.name], [`purpose.description.${purpose.purposeId}`, purpose.description]])),
  };
  const targets = scheduledLanguageCodes.filter((language) => notice.translations[language]?.source !== 'MANUAL');
  const translator = translatorFor();
  const updatedAt = nowIso();
  const drafted = await Promise.all(
    targets.map(async (language) => {
      const { texts, source } = await draftTranslation(translator, english, language);
      const translation: NoticeTranslation = {
        title: texts.title,
        introText: texts.introText,
        rightsText: texts.rightsText,
        complaintText: texts.complaintText,
        purposes: Object.fromEntries(
          purposes.map((purpose) => [purpose.purposeId, { name: texts[`purpose.name.${purpose.purposeId}`], description: texts[`purpose.description.${purpose.purposeId}`] }]),
        ),
        source,
        updatedAt,
      };
      return [language, translation] as const;
    }),
  );
  await writeDraft(tenantId, noticeId, notice.revision, {
    set: { ...Object.fromEntries(drafted.map(([language, translation]) => [`translations.${language}`, translation])), updatedAt },
  });
  return {
    noticeId,
    translator: translator.name,
    languages: drafted.map(([language, translation]) => ({ language, source: translation.source })),
    keptManual: scheduledLanguageCodes.filter((language) => !targets.includes(language)),
  };
};

/** The notice as a principal would read it in `language`, falling back to English field by field. */
export const previewNotice = async (tenantId: string, noticeId: string, language: LanguageCode) => {
  const notice = await requireNotice(tenantId, noticeId);
  const stored = language === 'EN' ? undefined : notice.translations[language];
  // An English placeholder awaiting a translator is no text in that language.
  const translation = stored?.source === 'NEEDS_TRANSLATION' ? undefined : stored;
  const fallbackFields: string[] = [];
  const pick = (field: string, translated: string | undefined, english: string) => {
    if (language !== 'EN' && !translated) fallbackFields.push(field);
    return translated || english;
  };
  const purposes = configuredPurposes(notice, await getPurposes(tenantId, notice.purposeIds)).map(({ purpose, isRequired }) => ({
    id: purpose.purposeId,
    name: pick(`purposes.${purpose.purposeId}.name`, translation?.purposes?.[purpose.purposeId]?.name, purpose.name),
    description: pick(`purposes.${purpose.purposeId}.description`, translation?.purposes?.[purpose.purposeId]?.description, purpose.description),
    required: isRequired,
    dataCategories: purpose.dataCategories,
  }));
  return {
    id: notice.noticeId,
    language,
    title: pick('title', translation?.title, notice.title),
    introText: pick('introText', translation?.introText, notice.introText),
    rightsText: pick('rightsText', translation?.rightsText, notice.rightsText),
    complaintText: pick('complaintText', translation?.complaintText, notice.complaintText),
    contactEmail: notice.contactEmail,
    contactUrl: notice.contactUrl,
    withdrawalUrl: notice.withdrawalUrl,
    purposes,
    fallbackFields,
  };
};
