/**
 * Who a decision is about, and whether it is consent in force (s.9 of the Act; shared/children
 * holds the rest of the domain). Pure, so the browser apps may import it.
 */

/** ADULT: the default; CHILD: under 18; GUARDED: a person with a disability who has a lawful guardian (s.9(1), rule 11). */
export const principalStatuses = ['ADULT', 'CHILD', 'GUARDED'] as const;
export type PrincipalStatus = (typeof principalStatuses)[number];

/**
 * A record's state. Only ACTIVE is consent in force: a child's decision waits for the parent
 * (AWAITING_GUARDIAN) and may end GUARDIAN_REFUSED or GUARDIAN_EXPIRED; a record whose every
 * purpose's retention period ended is EXPIRED (retention/, s.8(7)). Readers ask `inForce`
 * (record.ts), never compare with a list of their own.
 */
export const consentStates = ['ACTIVE', 'AWAITING_GUARDIAN', 'GUARDIAN_REFUSED', 'GUARDIAN_EXPIRED', 'EXPIRED'] as const;
export type ConsentState = (typeof consentStates)[number];

/** Rule 10(1): (a) details the fiduciary holds; (b)(i) details the person gives; (b)(ii) a virtual token of an authorised entity. */
export const verificationMethods = ['TENANT_ATTESTED', 'SELF_DECLARED', 'VIRTUAL_TOKEN'] as const;
export type VerificationMethod = (typeof verificationMethods)[number];
