import * as z from 'zod/mini';
import { cookieCategory, configView } from '../cmp/visitor-schemas';
import { described } from '../described';
import { languageCodes } from '../i18n/languages';
import { publicNoticeObject } from '../notices/schemas';

/** The cache key, and all the request there is: the origin gets nothing else (shared/http/edge-cache.ts). */
export const widgetBootstrapQuery = /* @__PURE__ */ (() => z.strictObject({
  apiKey: described(z.string().check(z.maxLength(200)), 'A publishable key; it names the tenant'),
  language: described(z.enum(languageCodes), 'The language whose words and notice translation the answer holds, as the widget chose it (upper case)'),
}))();

export const widgetBootstrapView = /* @__PURE__ */ z.lazy(() => z.object({
    notice: described(
      z.nullable(z.omit(publicNoticeObject(), { labels: true })),
      "The published notice exactly as GET /consent/public-notice serves it, with translations holding only the requested language (when the notice has it) and without labels (they are in words); null while nothing is published",
    ),
    cmp: described(
      z.nullable(
        z.extend(z.pick(configView, { categories: true, defaultDeny: true, childDirected: true, bannerTheme: true, languages: true, reconsentDays: true, showPoweredBy: true, brandName: true, logoUrl: true, revision: true }), {
          trackers: z.array(z.object({ domain: z.string(), cookieName: z.optional(z.string()), category: cookieCategory })),
        }),
      ),
      'The cookie banner: GET /cmp/config/:tenantId without labelSets (in words), with languages limited to those the banner offers (those with words) and trackers limited to what the banner shows; null until the first PUT /cmp/config, and always on a collect-only plan',
    ),
    words: described(
      z.record(z.string(), z.record(z.string(), z.string())),
      'Both banners\' words: under the requested language the words it shows (the notice\'s labels, then the cookie configuration\'s labelSets), under EN the English of every other key, which the widget shows marked lang="en". Only EN when EN was asked for',
    ),
    version: described(z.string(), 'The content version: the ETag without its quotes; it changes exactly when the answer does'),
  }));
