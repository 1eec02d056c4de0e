import { wordStatuses, type WordStatus } from '../words/statuses';
import type { WidgetLabelSet } from '../words/resolve';
import { cookieBannerWords, noticeBannerWords } from '../words/widget-words';

/**
 * Every word the widget shows besides the tenant's notice (the cookie banner, and the notice
 * banner's headings and buttons), with its English default: the widget's part of the principal
 * words catalogue (shared/words/catalogue.ts), under the keys the cookie-consent API has always used.
 */
export const defaultBannerLabels = { ...cookieBannerWords, ...noticeBannerWords } as const;

export type BannerLabelKey = keyof typeof defaultBannerLabels;
export type BannerLabels = Record<BannerLabelKey, string>;

export const bannerLabelKeys = Object.keys(defaultBannerLabels) as [BannerLabelKey, ...BannerLabelKey[]];

export const labelStatuses = wordStatuses;
export type LabelStatus = WordStatus;

/**
 * A language of the public configuration's labelSets: the widget's words it shows (every one
 * for English). Projected from the tenant's words at each change of them.
 */
export type LabelSet = WidgetLabelSet;

export const defaultLabelSet = (): LabelSet => ({ labels: { ...defaultBannerLabels }, status: 'DEFAULT', updatedAt: null });
