import { noticeChildrenFields, readChildrenPolicy } from '../children/policy';
import { readPublicBody } from '../cmp/visitor-store';
import { strongEtag } from '../etag';
import type { LanguageCode } from '../i18n/languages';
import { getPublicDocument } from '../notices/store';
import { noticeBannerLabels } from '../words/read';
import { readHead } from '../words/store';
import { widgetBootstrapOf, type CmpDocumentView, type NoticeDocument } from './bootstrap-shape';

/**
 * The widget's bootstrap for a tenant and language, serialised once with its strong ETag. Made
 * only when the edge misses (at most once a bound per tenant, language and regional cache), so
 * its four reads are strongly consistent: an answer made after a publish, a configuration change,
 * a change of words or of the children policy already holds it, and the edge's max-age is the whole propagation bound.
 * A tenant with nothing published has `notice: null`; one without a saved cookie configuration
 * (or on a collect-only plan, which can never save one) has `cmp: null`.
 */
export const widgetBootstrap = async (tenantId: string, language: LanguageCode): Promise<{ body: string; etag: string }> => {
  const [notice, head, cmp, policy] = await Promise.all([getPublicDocument(tenantId, true), readHead(tenantId, true), readPublicBody(tenantId, true), readChildrenPolicy(tenantId)]);
  const available = (notice?.availableLanguages as string[] | undefined) ?? ['EN'];
  // The notice banner's words in English and in this language where the notice offers it, as GET /consent/public-notice has them.
  const labels = notice ? await noticeBannerLabels(head, language !== 'EN' && available.includes(language) ? ['EN', language] : ['EN']) : undefined;
  const config = cmp?.configured ? (JSON.parse(cmp.body) as { data: CmpDocumentView }).data : undefined;
  const data = widgetBootstrapOf({ notice: notice && ({ ...notice, labels, ...noticeChildrenFields(policy) } as NoticeDocument), cmp: config }, language);
  const etag = strongEtag(JSON.stringify(data));
  return { body: JSON.stringify({ data: { ...data, version: etag.slice(1, -1) } }), etag };
};
