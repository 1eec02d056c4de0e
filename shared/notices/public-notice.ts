import { shownLanguages } from '../consent/notice-text';
import { nativeNamesOf } from '../i18n/languages';
import { NotFoundError } from '../errors';
import type { NoticeDiff } from './diff';
import type { NoticeSnapshot } from './notice';
import { getPublicDocument } from './store';
import { noticeBannerLabels } from '../words/read';
import { retentionText } from '../retention/retention-words';
import { readHead } from '../words/store';
import { noticeChildrenFields, readChildrenPolicy } from '../children/policy';

/** Which published version a consent must have been given to, to still cover this one. */
export interface MaterialBaseline {
  materialVersion: number;
  materialNoticeId: string;
}

/**
 * A publish without a material change (the shared notice diff decides) inherits the baseline of
 * the notice it replaces, so the widget does not ask again for a wording change; anything else,
 * including a replaced notice whose baseline is unknown, starts a new one (asking again is the
 * safe side).
 */
export const materialBaselineOf = (snapshot: NoticeSnapshot, diff: NoticeDiff | undefined, replaced: Record<string, unknown> | undefined, replacedNoticeId: string | undefined): MaterialBaseline => {
  const inherited = diff && !diff.hasMaterialChange && replaced && replaced.id === replacedNoticeId;
  if (inherited && typeof replaced.materialVersion === 'number' && typeof replaced.materialNoticeId === 'string') {
    return { materialVersion: replaced.materialVersion, materialNoticeId: replaced.materialNoticeId };
  }
  return { materialVersion: snapshot.versionNumber, materialNoticeId: snapshot.noticeId };
};

/**
 * The public notice as the spec shapes it, plus extensions the widget needs (rightsText, the
 * version and its material baseline), computed once at publish from the snapshot (and again when
 * the withdrawal URL is patched) so that the widget's hot path is one read.
 * `servicePortalUrl` is the tenant's page on the service's own withdrawal portal: the route of a
 * notice that names no withdrawalUrl of its own.
 */
export const buildPublicNotice = (snapshot: NoticeSnapshot, servicePortalUrl: string | null, baseline: MaterialBaseline) => {
  const languages = shownLanguages(snapshot);
  const translations = Object.fromEntries(
    languages
      .filter((language) => language !== 'EN')
      .map((language) => [language, snapshot.translations[language as keyof NoticeSnapshot['translations']]] as const)
      .map(([language, translation]) => [
      language,
      {
        title: translation?.title ?? snapshot.title,
        introText: translation?.introText ?? snapshot.introText,
        rightsText: translation?.rightsText ?? snapshot.rightsText,
        complaintText: translation?.complaintText ?? snapshot.complaintText,
        purposes: Object.fromEntries(
          snapshot.purposes.map((purpose) => [
            purpose.id,
            {
              name: translation?.purposes?.[purpose.id]?.name ?? purpose.name,
              description: translation?.purposes?.[purpose.id]?.description ?? purpose.description,
            },
          ]),
        ),
      },
    ]),
  );
  return {
    id: snapshot.noticeId,
    title: snapshot.title,
    description: snapshot.introText,
    privacyPolicyUrl: snapshot.contactUrl,
    contactEmail: snapshot.contactEmail,
    complaintText: snapshot.complaintText,
    rightsText: snapshot.rightsText,
    withdrawalUrl: snapshot.withdrawalUrl ?? servicePortalUrl,
    purposes: snapshot.purposes.map((purpose) => ({
      id: purpose.id,
      name: purpose.name,
      description: purpose.description,
      required: purpose.required,
      dataCategories: purpose.dataCategories,
      retention: purpose.retention ?? null,
    })),
    translations,
    availableLanguages: languages,
    versionNumber: snapshot.versionNumber,
    ...baseline,
  };
};

export type PublicNotice = ReturnType<typeof buildPublicNotice>;

/**
 * Each purpose's retention in words, in every language the notice's labels carry (English where a
 * language lacks a word for it): made as the notice is read, so a change of words shows at once.
 */
const withRetentionWords = (purposes: PublicNotice['purposes'] | undefined, labels: Record<string, Record<string, string>>) =>
  (purposes ?? []).map((purpose) => {
    const { retention } = purpose;
    if (!retention) return purpose;
    const retentionWords = Object.fromEntries(Object.keys(labels).flatMap((language) => {
      const said = retentionText(retention, labels, language);
      return said ? [[language, said.text] as const] : [];
    }));
    return { ...purpose, retentionWords };
  });

/** The precomputed notice with the banner's words in its languages, read beside it (two parallel reads; the service's built-in words of its languages from files read once per instance). */
export const readPublicNotice = async (tenantId: string) => {
  // The children policy is read beside the document, in parallel: a change applies to the next page view.
  const [document, head, policy] = await Promise.all([getPublicDocument(tenantId), readHead(tenantId), readChildrenPolicy(tenantId)]);
  if (!document) throw new NotFoundError('Published notice');
  const labels = await noticeBannerLabels(head, (document.availableLanguages as string[] | undefined) ?? ['EN']);
  return {
    ...document,
    purposes: withRetentionWords(document.purposes as PublicNotice['purposes'] | undefined, labels),
    labels,
    languageNames: nativeNamesOf((document.availableLanguages as string[] | undefined) ?? ['EN']),
    ...noticeChildrenFields(policy),
  };
};
