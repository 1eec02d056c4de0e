/**
 * The words the widget needs before, or without, a tenant's label sets (no cookie banner configured,
 * or sets saved before a key existed): the widget bundles these and nothing else of shared/cmp/labels.ts.
 */
export const widgetFallbackLabels = {
  acceptAll: 'Accept all',
  rejectAll: 'Reject all',
  close: 'Close',
  privacyChoices: 'Privacy choices',
  language: 'Language',
  gpcNotice: 'Your browser sent a Global Privacy Control signal, so marketing cookies start off.',
  saveFailed: 'Your choice could not be saved. Please try again.',
  'notice.purposes': 'Purposes',
  'notice.required': 'Required',
  'notice.dataUsed': 'Data used',
  'notice.rights': 'Your rights',
  'notice.complaints': 'Complaints',
  'notice.withdrawal': 'Withdrawing consent',
  'notice.withdrawalHint': 'You can change or withdraw your consent at any time, as easily as you gave it, with "Privacy choices" on this page.',
  'notice.withdrawalPage': 'Withdrawal page',
  'notice.withdrawOnPage': 'Withdraw this earlier choice on the withdrawal page:',
  'notice.contact': 'Contact',
  'notice.privacyPolicy': 'Privacy policy',
  'notice.saveChoices': 'Save choices',
  'notice.withdrawAll': 'Withdraw all',
  'notice.cookiePreferences': 'Cookie preferences',
} as const;
