/**
 * Every word a data principal reads about rights requests, in one catalogue: the portal's "Your
 * rights" section and request page (web/portal merges `rightsPageEnglish` into its label set) and
 * the mails the principal gets. English is complete; Hindi, as the portal has it, falls back to
 * English key by key. `{name}` marks a value filled in at run time. A pure module: the portal
 * bundles it.
 */
export const rightsPageEnglish = {
  rightsHeading: 'Your rights',
  rightsIntro: '{tenant} must answer your requests about your personal data. You can ask for:',
  typeName_ACCESS: 'Access to my data',
  typeName_CORRECTION: 'Correction',
  typeName_COMPLETION: 'Completion',
  typeName_UPDATING: 'Updating',
  typeName_ERASURE: 'Erasure',
  typeName_GRIEVANCE: 'A grievance',
  typeName_NOMINATION: 'A nomination',
  typeHint_ACCESS: 'a summary of your personal data, what it is used for and everyone it is shared with',
  typeHint_CORRECTION: 'correction of data that is inaccurate or misleading',
  typeHint_COMPLETION: 'completion of data that is incomplete',
  typeHint_UPDATING: 'updating of your data',
  typeHint_ERASURE: 'erasure of your data; your consent is withdrawn too',
  typeHint_GRIEVANCE: 'a complaint about how your data or a request was handled',
  typeHint_NOMINATION: 'a person who may exercise your rights if you die or cannot act yourself',
  identifiersNeeded: 'To find your data, {tenant} needs: {identifiers}.',
  periods: 'Requests are answered within {requestDays} days, grievances within {grievanceDays} days.',
  requestFormHeading: 'Make a request',
  requestType: 'What do you want to ask for?',
  requestDetails: 'Describe your request',
  requestDetailsHint: 'Up to 5,000 characters. Never include passwords or payment details.',
  requestEmailHint: 'We send a link to this address. You confirm the request there, and follow it until it is answered.',
  nomineeLegend: 'Your nominee',
  nomineeName: 'Nominee’s name',
  nomineeEmail: 'Nominee’s email address',
  nomineeRelationship: 'Relationship to you',
  detailsMissing: 'Describe your request.',
  nomineeMissing: 'Give your nominee’s name, email address and relationship to you.',
  sendRequest: 'Send request',
  requestSentText: 'If {email} is your address, a link to confirm your request is on its way. Nothing is sent to the organisation until you confirm it, within 24 hours.',
  requestPageTitle: 'Your request',
  requestIntro: 'Your request to {tenant}.',
  requestLabel: 'Request',
  detailsLabel: 'Details',
  statusLabel: 'Status',
  createdLabel: 'Made on',
  confirmByLabel: 'Confirm before',
  submittedLabel: 'Received on',
  dueLabel: 'To be answered by',
  resolvedLabel: 'Answered on',
  outcomeLabel: 'Outcome',
  nomineeLabel: 'Nominee',
  daysLeft: '{days} days left',
  overdue: 'The answer is overdue.',
  status_UNVERIFIED: 'Waiting for your confirmation',
  status_SUBMITTED: 'Received',
  status_IN_PROGRESS: 'Being worked on',
  status_RESOLVED: 'Answered',
  status_EXPIRED: 'Not confirmed in time',
  outcome_FULFILLED: 'Fulfilled',
  outcome_PARTIALLY_FULFILLED: 'Partly fulfilled',
  outcome_REJECTED: 'Rejected',
  confirmText: 'Please confirm that you made this request. Opening this page sent nothing: {tenant} gets the request only once you confirm it.',
  confirmRequest: 'Confirm my request',
  confirming: 'Confirming…',
  confirmedText: '{tenant} has your request and must answer it by the date below. Keep this link to follow it.',
  expiredRequestText: 'This request was not confirmed within 24 hours, so it was never sent. You can make a new one.',
  newRequest: 'Make a new request to {tenant}',
  requestNotFoundText: 'Check that the whole link from your email was opened. A link shows the answer for 90 days after it is given.',
  answerHeading: 'The answer',
  linkValidUntil: 'This page shows the answer until',
  summaryHeading: 'Your personal data',
  summaryIntro: 'What {tenant} holds about you and who it shares it with, as at',
  recordsHeading: 'Your consent',
  noticeVersion: '{notice}, version {version}',
  givenOn: 'Given on',
  shownIn: 'Shown in',
  purposesGranted: 'Consent given for',
  purposesWithdrawnLabel: 'Withdrawn',
  usesHeading: 'What your data is used for',
  dataLabel: 'Data',
  heldIn: 'Held in',
  keptFor: 'kept {days} days',
  sharedHeading: 'Who your data is shared with',
  role_PROCESSOR: 'Processes it for {tenant}',
  role_FIDUCIARY: 'Another organisation responsible for it',
  nomineesHeading: 'Your nominees',
  noneListed: 'None.',
  downloadSummary: 'Download the summary (JSON)',
  boardAfterGrievance:
    'If you are not satisfied with this answer, you may complain to the Data Protection Board of India: you have now used {tenant}’s grievance process, which the law asks for first.',
  closureReceipt: 'Closure receipt: a record of this answer signed by the service, which anyone can check with its public keys.',
} as const;

export type RightsPageLabel = keyof typeof rightsPageEnglish;

export const rightsPageHindi: Partial<Record<RightsPageLabel, string>> = {
  rightsHeading: 'आपके अधिकार',
  rightsIntro: '{tenant} को आपके व्यक्तिगत डेटा के बारे में आपके अनुरोधों का उत्तर देना होगा। आप माँग सकते हैं:',
  typeName_ACCESS: 'मेरे डेटा तक पहुँच',
  typeName_CORRECTION: 'सुधार',
  typeName_COMPLETION: 'पूर्ण करना',
  typeName_UPDATING: 'अद्यतन',
  typeName_ERASURE: 'मिटाना',
  typeName_GRIEVANCE: 'शिकायत',
  typeName_NOMINATION: 'नामांकन',
  typeHint_ACCESS: 'आपके व्यक्तिगत डेटा का सारांश, उसका उपयोग किसलिए होता है और वह किन-किन के साथ साझा होता है',
  typeHint_ERASURE: 'आपके डेटा को मिटाना; आपकी सहमति भी वापस ली जाती है',
  typeHint_GRIEVANCE: 'आपके डेटा या किसी अनुरोध के साथ हुए व्यवहार की शिकायत',
  periods: 'अनुरोधों का उत्तर {requestDays} दिनों में और शिकायतों का {grievanceDays} दिनों में दिया जाता है।',
  requestFormHeading: 'अनुरोध करें',
  requestType: 'आप क्या माँगना चाहते हैं?',
  requestDetails: 'अपने अनुरोध का विवरण दें',
  sendRequest: 'अनुरोध भेजें',
  requestPageTitle: 'आपका अनुरोध',
  statusLabel: 'स्थिति',
  dueLabel: 'उत्तर की अंतिम तिथि',
  status_UNVERIFIED: 'आपकी पुष्टि की प्रतीक्षा है',
  status_SUBMITTED: 'प्राप्त हुआ',
  status_IN_PROGRESS: 'कार्रवाई जारी है',
  status_RESOLVED: 'उत्तर दिया गया',
  status_EXPIRED: 'समय पर पुष्टि नहीं हुई',
  confirmRequest: 'मेरे अनुरोध की पुष्टि करें',
  answerHeading: 'उत्तर',
  summaryHeading: 'आपका व्यक्तिगत डेटा',
  sharedHeading: 'आपका डेटा किनके साथ साझा होता है',
  boardAfterGrievance:
    'यदि आप इस उत्तर से संतुष्ट नहीं हैं, तो आप भारत के डेटा संरक्षण बोर्ड में शिकायत कर सकते हैं: आपने {tenant} की शिकायत प्रक्रिया का उपयोग कर लिया है, जो कानून के अनुसार पहले आवश्यक है।',
};

/** The principal's mails. */
export const rightsMailEnglish = {
  confirmSubject: '{tenant}: confirm your request',
  confirmText:
    'Someone, hopefully you, made a request to {tenant}: {type}.\nOpen this link and confirm it by {confirmBy}. Nothing is sent to {tenant} until you do:\n{url}\nIf you did not make this request, ignore this mail.',
  receivedSubject: '{tenant}: your request is received',
  receivedText: '{tenant} has your request ({type}, reference {reference}) and must answer it by {dueAt}.\nFollow it here: {url}\nContact: {contact}',
  answerSubject: '{tenant}: the answer to your request',
  answerText: 'Your request ({type}, reference {reference}) was answered on {resolvedAt}. Outcome: {outcome}.\n\n{response}\n\nThe answer is on your request’s page until {validUntil}:\n{url}\nContact: {contact}',
  boardAfterGrievance:
    'If you are not satisfied with this answer, you may complain to the Data Protection Board of India: you have now used {tenant}’s grievance process, which the law asks for first.',
  closureReceipt: 'Your closure receipt (a record of this answer signed by the service; anyone can check it with the service’s public keys):\n{receipt}',
  noContact: 'reply to the mails of {tenant}',
} as const;

export type RightsMailLabel = keyof typeof rightsMailEnglish;

export const rightsMailHindi: Partial<Record<RightsMailLabel, string>> = {
  confirmSubject: '{tenant}: अपने अनुरोध की पुष्टि करें',
  confirmText:
    'किसी ने, संभवतः आपने, {tenant} से अनुरोध किया है: {type}।\nयह लिंक खोलें और {confirmBy} तक इसकी पुष्टि करें। आपकी पुष्टि तक {tenant} को कुछ नहीं भेजा जाता:\n{url}\nयदि यह अनुरोध आपने नहीं किया, तो इस मेल को अनदेखा करें।',
  receivedSubject: '{tenant}: आपका अनुरोध प्राप्त हुआ',
  answerSubject: '{tenant}: आपके अनुरोध का उत्तर',
  boardAfterGrievance:
    'यदि आप इस उत्तर से संतुष्ट नहीं हैं, तो आप भारत के डेटा संरक्षण बोर्ड में शिकायत कर सकते हैं: आपने {tenant} की शिकायत प्रक्रिया का उपयोग कर लिया है, जो कानून के अनुसार पहले आवश्यक है।',
};

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));

/** A mail label in `language` (HI has its own), else English, with its values filled in. */
export const rightsMailText = (language: string, key: RightsMailLabel, values: Record<string, string | number> = {}): string =>
  fill((language === 'HI' ? rightsMailHindi[key] : undefined) ?? rightsMailEnglish[key], values);

/** A request type's name in `language`, for mails. */
export const rightsTypeName = (language: string, type: string): string => {
  const key = `typeName_${type}` as RightsPageLabel;
  return (language === 'HI' ? rightsPageHindi[key] : undefined) ?? rightsPageEnglish[key] ?? type;
};

export const rightsOutcomeName = (language: string, outcome: string): string => {
  const key = `outcome_${outcome}` as RightsPageLabel;
  return (language === 'HI' ? rightsPageHindi[key] : undefined) ?? rightsPageEnglish[key] ?? outcome;
};
