import { AppError } from '../errors';

import { cookieCategories, type CookieCategory } from './categories';

export { cookieCategories, type CookieCategory };

/** The categories a visitor chooses: everything but NECESSARY. */
export const optionalCategories = cookieCategories.filter((category) => category !== 'NECESSARY');

/** Categories a child-directed site may not offer (DPDP Act s. 9: no tracking or targeted advertising of children). */
export const childRestrictedCategories = ['ANALYTICS', 'MARKETING'] as const;

export const bannerPositions = ['bottom-right', 'bottom-left', 'bottom-center', 'top-center'] as const;

export interface CategorySetting {
  enabled: boolean;
  toggleable: boolean;
}

export interface BannerTheme {
  position: (typeof bannerPositions)[number];
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
  borderRadius: number;
  showLogo: boolean;
}

/** The fields PUT /cmp/config sets. */
export interface BannerConfig {
  categories: Record<CookieCategory, CategorySetting>;
  defaultDeny: boolean;
  childDirected: boolean;
  bannerTheme: BannerTheme;
  /** Lower-case codes (`en`, `hi`, `brx`), the form browsers' language tags use. */
  languages: string[];
  reconsentDays: number;
  scanEnabled: boolean;
  scanUrls: string[];
}

export const defaultBannerConfig = (): BannerConfig => ({
  categories: {
    NECESSARY: { enabled: true, toggleable: false },
    FUNCTIONAL: { enabled: true, toggleable: true },
    ANALYTICS: { enabled: true, toggleable: true },
    MARKETING: { enabled: true, toggleable: true },
    UNCLASSIFIED: { enabled: true, toggleable: true },
  },
  defaultDeny: true,
  childDirected: false,
  bannerTheme: {
    position: 'bottom-right',
    primaryColor: '#1a56db',
    backgroundColor: '#ffffff',
    textColor: '#111827',
    borderRadius: 8,
    showLogo: false,
  },
  languages: ['en'],
  reconsentDays: 180,
  scanEnabled: false,
  scanUrls: [],
});

export type BannerConfigChange = Partial<Omit<BannerConfig, 'categories' | 'bannerTheme'>> & {
  categories?: Partial<Record<CookieCategory, Partial<CategorySetting>>>;
  bannerTheme?: Partial<BannerTheme>;
};

/**
 * Existing plus incoming, field by field (inside each category and the theme too), so a PUT
 * that names one field never resets another.
 */
export const mergeBannerConfig = <C extends BannerConfig>(current: C, change: BannerConfigChange): C => {
  const { categories, bannerTheme, ...scalars } = change;
  return {
    ...current,
    ...scalars,
    bannerTheme: { ...current.bannerTheme, ...bannerTheme },
    categories: Object.fromEntries(
      Object.entries(current.categories).map(([category, setting]) => [category, { ...setting, ...categories?.[category as CookieCategory] }]),
    ) as BannerConfig['categories'],
  };
};

/**
 * The child-directed rule on the merged state. The spec forbids toggleable ANALYTICS and
 * MARKETING; an enabled but non-toggleable one would track every child with no choice at all,
 * so a child-directed banner may offer neither in any form.
 */
export const assertChildDirectedRule = (config: BannerConfig): void => {
  if (!config.childDirected) return;
  const offending = childRestrictedCategories.filter((category) => config.categories[category].enabled || config.categories[category].toggleable);
  if (offending.length === 0) return;
  // The spec keeps `fields` for VALIDATION_ERROR alone, so the categories are named in the message.
  throw new AppError(
    'CHILD_DIRECTED_VIOLATION',
    `A child-directed banner cannot offer ${offending.join(' or ')}: set categories.${offending.join(' and categories.')} to enabled false and toggleable false`,
  );
};

/**
 * How a decision reads over the optional categories it names: all true is accept, all false (or
 * none named) is reject, anything else partial.
 */
export type DecisionKind = 'accept' | 'reject' | 'partial';

export const decisionKindOf = (categories: Record<string, boolean>): DecisionKind => {
  const chosen = Object.entries(categories).filter(([category]) => category !== 'NECESSARY').map(([, value]) => value);
  if (chosen.length > 0 && chosen.every(Boolean)) return 'accept';
  if (chosen.every((value) => !value)) return 'reject';
  return 'partial';
};
