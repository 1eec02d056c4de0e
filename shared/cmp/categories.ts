/** The spec's cookie categories. NECESSARY is always on and never a choice. Pure: the widget may import it. */
export const cookieCategories = ['NECESSARY', 'FUNCTIONAL', 'ANALYTICS', 'MARKETING', 'UNCLASSIFIED'] as const;
export type CookieCategory = (typeof cookieCategories)[number];
