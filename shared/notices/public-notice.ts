import { shownLanguages } from '../consent/notice-text';
import { NotFoundError } from '../errors';
import type { NoticeSnapshot } from './notice';
import { getPublicDocument } from './store';

/**
 * The public notice exactly as the spec shapes it, computed once at publish from the snapshot
 * (and again when the withdrawal URL is patched) so that the widget's hot path is one read.
 * `servicePortalUrl` is the tenant's page on the service's own withdrawal portal: the route of a
 * notice that names no withdrawalUrl of its own.
 */
export const buildPublicNotice = (snapshot: NoticeSnapshot, servicePortalUrl: string | null) => {
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
    withdrawalUrl: snapshot.withdrawalUrl ?? servicePortalUrl,
    purposes: snapshot.purposes.map((purpose) => ({
      id: purpose.id,
      name: purpose.name,
      description: purpose.description,
      required: purpose.required,
      dataCategories: purpose.dataCategories,
    })),
    translations,
    availableLanguages: languages,
  };
};

export type PublicNotice = ReturnType<typeof buildPublicNotice>;

export const readPublicNotice = async (tenantId: string) => {
  const document = await getPublicDocument(tenantId);
  if (!document) throw new NotFoundError('Published notice');
  return document;
};
