/*
 * A module of its own, without the catalogue's words: the visitor-facing cookie schemas name the
 * statuses, and the cmp-public function should not carry every surface's English to do so.
 */

/**
 * DEFAULT: no word of the tenant's and none of the service's, the English stands. BUILT_IN: no
 * word of the tenant's, the service's own word for the language stands (shared/words/built-in/).
 * DRAFT: machine-drafted, awaiting review. NEEDS_TRANSLATION: the translator lacks the language
 * (or lost a `{slot}`); English stands in until a person translates it. REVIEWED: saved by a
 * person of the tenant's. DEFAULT and BUILT_IN are never stored: they are what a missing word reads as.
 */
export const wordStatuses = ['DEFAULT', 'BUILT_IN', 'DRAFT', 'NEEDS_TRANSLATION', 'REVIEWED'] as const;
export type WordStatus = (typeof wordStatuses)[number];
/** A status a tenant's stored word can have. */
export type StoredStatus = Exclude<WordStatus, 'DEFAULT' | 'BUILT_IN'>;
