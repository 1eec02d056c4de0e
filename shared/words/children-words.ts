/**
 * The words a parent or lawful guardian reads (s.9 of the Act, rules 10 and 11), with their
 * English defaults: the guardian's page (/portal/g/<token>) and the two mails (the request, and
 * the receipt of an approval). The widget's age question is on the notice banner's surface
 * (widget-words.ts). `{name}` marks a value filled in when shown.
 */
export const guardianPageWords = {
  'guardian.pageTitle': 'Consent for your child',
  'guardian.pageTitleGuarded': 'Consent as lawful guardian',
  'guardian.intro': 'Your child used a service of {tenant} and made the choices below. The law asks {tenant} to have your consent, as the parent, before it processes your child’s personal data.',
  'guardian.introGuarded': 'A person for whom you are the lawful guardian used a service of {tenant} and made the choices below. The law asks {tenant} to have your consent, as the lawful guardian, before it processes their personal data.',
  'guardian.choicesHeading': 'What was chosen, purpose by purpose',
  'guardian.chosen': 'Chosen',
  'guardian.notChosen': 'Not chosen',
  'guardian.exempt': 'Allowed by law without your consent',
  'guardian.keep': 'Allow this purpose',
  'guardian.nextHeading': 'What happens next',
  'guardian.next': 'Nothing is processed on these choices until you decide. If you approve, {tenant} may process the data for the purposes you allow, and you can withdraw at any time. If you refuse, or do nothing until {expiresAt}, the choices are not used.',
  'guardian.methodLegend': 'How do you confirm that you are an adult and the parent or lawful guardian?',
  'guardian.method.TENANT_ATTESTED': '{tenant} already knows me as this person’s parent or guardian',
  'guardian.method.SELF_DECLARED': 'I give my name and year of birth',
  'guardian.method.VIRTUAL_TOKEN': 'I use a verified age token (for example from DigiLocker)',
  'guardian.name': 'Your full name',
  'guardian.birthYear': 'Your year of birth',
  'guardian.declaration': 'I declare that I am the parent or the lawful guardian of this person, and an adult.',
  'guardian.token': 'Your age token',
  'guardian.tokenHint': 'Paste the token your DigiLocker partner or other authorised issuer gave you.',
  'guardian.guardianshipHeading': 'Your appointment as lawful guardian',
  'guardian.authority': 'Court or authority that appointed you',
  'guardian.orderReference': 'Order or certificate number',
  'guardian.approve': 'Approve',
  'guardian.refuse': 'Refuse',
  'guardian.reason': 'Reason (optional, up to 500 characters)',
  'guardian.working': 'Sending…',
  'guardian.failed': 'This could not be confirmed, and nothing was changed. Please check:',
  'guardian.error.method': 'Choose how you confirm that you are an adult and the parent or guardian.',
  'guardian.error.name': 'Enter your full name.',
  'guardian.error.birthYear': 'Enter your year of birth, in four digits. A parent or guardian must be 18 or older.',
  'guardian.error.declaration': 'Tick the box to declare that you are the parent or lawful guardian.',
  'guardian.error.token': 'The age token could not be checked. Paste all of it, and check that it is still valid and comes from an issuer this organisation accepts.',
  'guardian.error.guardianship': 'Give the court or authority that appointed you, and the order or certificate number.',
  'guardian.error.busy': 'Too many attempts. Please wait a while and try again.',
  'guardian.error.other': 'Something went wrong. Please try again in a moment.',
  'guardian.approvedHeading': 'Your consent is recorded',
  'guardian.approvedText': '{tenant} may now process the data for the purposes you allowed. A receipt with a link to withdraw at any time is on its way to your email.',
  'guardian.refusedHeading': 'Your refusal is recorded',
  'guardian.refusedText': '{tenant} must not use these choices.',
  'guardian.goneHeading': 'This link is not valid',
  'guardian.goneTextPlain': 'The link was already used, has expired or is not complete. If you still need to decide, ask the organisation to send a new one.',
} as const;

export const guardianMailWords = {
  'mail.guardian.requestSubject': '{tenant}: your consent is needed for your child',
  'mail.guardian.requestSubjectGuarded': '{tenant}: your consent is needed as lawful guardian',
  'mail.guardian.requestText':
    'Someone gave this address as the parent or lawful guardian of a person who made choices about their personal data with {tenant}.\nNothing is processed on those choices until you decide. Open this link to see them and approve or refuse (it works once, until {expiresAt}):\n{url}\nIf you are not the parent or guardian, ignore this mail: the choices then lapse.',
  'mail.guardian.receiptSubject': '{tenant}: your consent as parent or guardian is recorded',
  'mail.guardian.receiptText':
    'You approved, on {at}, the processing for these purposes: {purposes}.\nReference: {reference}.\nYou can withdraw this consent at any time, as easily as you gave it, with this link (it works once, until {expiresAt}):\n{url}',
  'mail.guardian.nothing': 'none',
} as const;
