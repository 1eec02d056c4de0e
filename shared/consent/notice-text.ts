import canonicalize from 'canonicalize';
import { sha256Hex } from '../crypto/hash';
import type { NoticeSnapshot } from '../notices/notice';

/**
 * The exact notice text a principal saw in one language, field by field with English where the
 * language had none (as the widget shows it). Its hash goes into every consent record; the
 * snapshot of the version is kept, so the text can be re-rendered and re-hashed years later.
 */
export const noticeTextShown = (snapshot: NoticeSnapshot, language: string) => {
  const translation = language === 'EN' ? undefined : snapshot.translations[language as keyof NoticeSnapshot['translations']];
  return {
    language,
    title: translation?.title ?? snapshot.title,
    introText: translation?.introText ?? snapshot.introText,
    rightsText: translation?.rightsText ?? snapshot.rightsText,
    complaintText: translation?.complaintText ?? snapshot.complaintText,
    contactEmail: snapshot.contactEmail,
    contactUrl: snapshot.contactUrl,
    purposes: snapshot.purposes.map((purpose) => ({
      id: purpose.id,
      name: translation?.purposes?.[purpose.id]?.name ?? purpose.name,
      description: translation?.purposes?.[purpose.id]?.description ?? purpose.description,
      dataCategories: purpose.dataCategories,
      legalBasis: purpose.legalBasis,
      required: purpose.required,
    })),
  };
};

export const noticeTextHash = (snapshot: NoticeSnapshot, language: string): string =>
  sha256Hex(canonicalize(noticeTextShown(snapshot, language)) ?? '');

/** Languages a principal can be shown: English and every real (not placeholder) translation. */
export const shownLanguages = (snapshot: NoticeSnapshot): string[] => [
  'EN',
  ...Object.entries(snapshot.translations)
    .filter(([, translation]) => translation?.source !== 'NEEDS_TRANSLATION')
    .map(([language]) => language)
    .sort(),
];
