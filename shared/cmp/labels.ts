import type { CookieCategory } from './categories';
import { widgetFallbackLabels } from './widget-labels';

/**
 * Every text the widget shows besides the tenant's notice (the cookie banner, and the notice
 * banner's headings and buttons), with its English default: the one list the widget, the
 * translation endpoints and their validation read.
 */
export const defaultBannerLabels = {
  title: 'We value your privacy',
  description:
    'We use cookies and similar technologies. Necessary ones keep the site working; the others need your consent, which you can give, refuse or change at any time.',
  savePreferences: 'Save preferences',
  managePreferences: 'Manage preferences',
  alwaysActive: 'Always active',
  withdrawConsent: 'Withdraw consent',
  cookiePolicy: 'Cookie policy',
  trackersListed: 'Cookies and trackers in this category',
  poweredBy: 'Powered by',
  'category.NECESSARY.name': 'Necessary',
  'category.NECESSARY.description': 'Needed for the site to work, such as keeping you signed in and remembering this choice. Always on.',
  'category.FUNCTIONAL.name': 'Functional',
  'category.FUNCTIONAL.description': 'Remember your settings, such as language and region, to make the site easier to use.',
  'category.ANALYTICS.name': 'Analytics',
  'category.ANALYTICS.description': 'Help us understand how the site is used so we can improve it.',
  'category.MARKETING.name': 'Marketing',
  'category.MARKETING.description': 'Used to show you relevant advertising on this and other sites.',
  'category.UNCLASSIFIED.name': 'Unclassified',
  'category.UNCLASSIFIED.description': 'Cookies we are still classifying. They stay off unless you allow them.',
  ...widgetFallbackLabels,
} as const satisfies Record<string, string> & Record<`category.${CookieCategory}.${'name' | 'description'}`, string>;

export type BannerLabelKey = keyof typeof defaultBannerLabels;
export type BannerLabels = Record<BannerLabelKey, string>;

export const bannerLabelKeys = Object.keys(defaultBannerLabels) as [BannerLabelKey, ...BannerLabelKey[]];

/**
 * DEFAULT: the built-in English, untouched. DRAFT: machine-drafted, awaiting review.
 * NEEDS_TRANSLATION: the translator lacks the language; the English stands in until a person
 * translates it. REVIEWED: saved by a person.
 */
export const labelStatuses = ['DEFAULT', 'DRAFT', 'NEEDS_TRANSLATION', 'REVIEWED'] as const;
export type LabelStatus = (typeof labelStatuses)[number];

export interface LabelSet {
  labels: BannerLabels;
  status: LabelStatus;
  updatedAt: string | null;
}

export const defaultLabelSet = (): LabelSet => ({ labels: { ...defaultBannerLabels }, status: 'DEFAULT', updatedAt: null });
