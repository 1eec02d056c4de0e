import type { ConsentState } from '../../../../shared/consent/states';

/** How the parent or lawful guardian proved to be an identifiable adult (rule 10(1)), for the Children screen and the record view. */
export const verificationMethodLabels = {
  TENANT_ATTESTED: 'Attested by our server (rule 10(1)(a): details we hold)',
  SELF_DECLARED: 'Declared by the parent: name and year of birth (rule 10(1)(b)(i))',
  VIRTUAL_TOKEN: 'Virtual token of an authorised issuer, such as a DigiLocker partner (rule 10(1)(b)(ii))',
} as const;

/** A record's consentState, in words: only ACTIVE is consent in force. */
export const consentStateText = {
  ACTIVE: 'In force.',
  AWAITING_GUARDIAN: "Not in force: a child's or guarded person's decision, waiting for the parent or lawful guardian to approve it.",
  GUARDIAN_REFUSED: 'Not in force: the parent or lawful guardian refused it.',
  GUARDIAN_EXPIRED: 'Not in force: the parent or lawful guardian did not decide within 7 days.',
  EXPIRED: "Not in force: every purpose's retention period ended, and the principal's data is due for erasure (s.8(7)).",
} satisfies Record<ConsentState, string>;
