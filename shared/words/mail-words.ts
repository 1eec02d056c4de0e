/**
 * The words of every mail to a principal, with their English defaults. The tenant's own texts
 * (a rights answer, a breach's consequences) come with the mail; these are the words around them.
 * `{name}` marks a value filled in when the mail is written.
 */
export const withdrawalMailWords = {
  'mail.withdrawal.confirmedSubject': '{tenant}: your consent withdrawal is confirmed',
  'mail.withdrawal.confirmedText': 'We have recorded the withdrawal of your consent for {scope}, at {at}.\nReference: {reference}.\n{tenant} must stop processing your personal data for what you withdrew.',
  'mail.withdrawal.scopeAll': 'all purposes',
  'mail.withdrawal.scopeSome': 'these purposes: {purposes}',
  'mail.withdrawal.linkSubject': '{tenant}: your link to withdraw consent',
  'mail.withdrawal.linkText':
    'Someone, hopefully you, asked to withdraw consent given to {tenant}.\nOpen this link to see your consent and choose what to withdraw (it works once, until {expiresAt}):\n{url}\nIf you did not ask for this, ignore this mail: nothing changes until the link is used.',
} as const;

export const rightsMailWords = {
  'mail.rights.confirmSubject': '{tenant}: confirm your request',
  'mail.rights.confirmText': 'Someone, hopefully you, made a request to {tenant}: {type}.\nOpen this link and confirm it by {confirmBy}. Nothing is sent to {tenant} until you do:\n{url}\nIf you did not make this request, ignore this mail.',
  'mail.rights.receivedSubject': '{tenant}: your request is received',
  'mail.rights.receivedText': '{tenant} has your request ({type}, reference {reference}) and must answer it by {dueAt}.\nFollow it here: {url}\nContact: {contact}',
  'mail.rights.answerSubject': '{tenant}: the answer to your request',
  'mail.rights.answerText': 'Your request ({type}, reference {reference}) was answered on {resolvedAt}. Outcome: {outcome}.\n\n{response}\n\nThe answer is on your request’s page until {validUntil}:\n{url}\nContact: {contact}',
  'mail.rights.boardAfterGrievance': 'If you are not satisfied with this answer, you may complain to the Data Protection Board of India: you have now used {tenant}’s grievance process, which the law asks for first.',
  'mail.rights.closureReceipt': 'Your closure receipt (a record of this answer signed by the service; anyone can check it with the service’s public keys):\n{receipt}',
  'mail.rights.noContact': 'reply to the mails of {tenant}',
} as const;

/**
 * A breach intimation's words around the tenant's own (its consequences, mitigation, safety steps
 * and contact, given per language with the intimation); the intimation may override any of them
 * per language (`labels`, by the key without its prefix).
 */
export const breachMailWords = {
  'mail.breach.subject': '{tenant}: a personal data breach that affects your data',
  'mail.breach.opening': 'We are writing to tell you about a personal data breach at {tenant} that affects your personal data.',
  'mail.breach.whatHappenedHeading': 'What happened',
  'mail.breach.timingLine': 'When: it happened on {occurredAt}; {tenant} became aware of it on {awareAt}.',
  'mail.breach.timingUnknown': 'When: {tenant} became aware of it on {awareAt}; when it happened is not yet known.',
  'mail.breach.consequencesHeading': 'What this may mean for you',
  'mail.breach.mitigationHeading': 'What we have done and are doing to reduce the risk',
  'mail.breach.safetyStepsHeading': 'What you can do to protect yourself',
  'mail.breach.contactHeading': 'Whom to contact',
  'mail.breach.reference': 'Reference: {breachId}',
  'mail.breach.why': 'The Digital Personal Data Protection Act, 2023 requires {tenant} to tell you about every personal data breach that affects your data.',
} as const;

/**
 * The principal's own notice before her data is erased (rule 8(2)): who, which purposes, what and
 * when, and how to keep it. The contact falls back to the rights mails' `mail.rights.noContact`.
 */
export const retentionMailWords = {
  'mail.retention.subject': '{tenant}: your personal data will be erased unless you act',
  'mail.retention.text': '{tenant} will erase the personal data it keeps about you for these purposes on {dueAt}: {purposes}.\nWhat will be erased: {data}.',
  'mail.retention.dataAll': 'the personal data you gave for these purposes',
  'mail.retention.keep': 'To keep it, do one of these before then: log in to your account with {tenant}, contact {tenant}, or exercise one of your rights (such as access or correction).',
  'mail.retention.link': 'Your consent and your rights with {tenant}:\n{url}',
  'mail.retention.contact': 'Contact: {contact}',
} as const;
