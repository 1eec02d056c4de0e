/*
 * A module of its own, without the catalogue's words: the visitor-facing cookie schemas name the
 * statuses, and the cmp-public function should not carry every surface's English to do so.
 */

/**
 * DEFAULT: no word of the tenant's, the English default stands. DRAFT: machine-drafted, awaiting
 * review. NEEDS_TRANSLATION: the translator lacks the language (or lost a `{slot}`); English
 * stands in until a person translates it. REVIEWED: saved by a person.
 */
export const wordStatuses = ['DEFAULT', 'DRAFT', 'NEEDS_TRANSLATION', 'REVIEWED'] as const;
export type WordStatus = (typeof wordStatuses)[number];
