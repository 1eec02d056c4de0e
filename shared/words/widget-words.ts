import type { CookieCategory } from '../cmp/categories';

/**
 * The widget's words, with their English defaults. Two surfaces: the cookie banner's own words,
 * and the notice banner's (with the words both banners share: the buttons, "Privacy choices",
 * the language switcher, the GPC note). Their keys are the cookie-consent label keys the public
 * configuration and /cmp/translations have always used, so they carry no prefix.
 */
export const cookieBannerWords = {
  title: 'We value your privacy',
  description:
    'We use cookies and similar technologies. Necessary ones keep the site working; the others need your consent, which you can give, refuse or change at any time.',
  savePreferences: 'Save preferences',
  managePreferences: 'Manage preferences',
  alwaysActive: 'Always active',
  withdrawConsent: 'Withdraw consent',
  cookiePolicy: 'Cookie policy',
  trackersListed: 'Cookies and trackers in this category',
  poweredBy: 'Powered by',
  'category.NECESSARY.name': 'Necessary',
  'category.NECESSARY.description': 'Needed for the site to work, such as keeping you signed in and remembering this choice. Always on.',
  'category.FUNCTIONAL.name': 'Functional',
  'category.FUNCTIONAL.description': 'Remember your settings, such as language and region, to make the site easier to use.',
  'category.ANALYTICS.name': 'Analytics',
  'category.ANALYTICS.description': 'Help us understand how the site is used so we can improve it.',
  'category.MARKETING.name': 'Marketing',
  'category.MARKETING.description': 'Used to show you relevant advertising on this and other sites.',
  'category.UNCLASSIFIED.name': 'Unclassified',
  'category.UNCLASSIFIED.description': 'Cookies we are still classifying. They stay off unless you allow them.',
} as const satisfies Record<string, string> & Record<`category.${CookieCategory}.${'name' | 'description'}`, string>;

/** The notice banner's words and those both banners share: what the public notice carries for the widget. */
export const noticeBannerWords = {
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
  'notice.withdrawAllPurposes': 'This withdraws your consent to every purpose of this notice.',
  'notice.withdrawAllCookies': 'It also turns off the optional cookies:',
  'notice.withdrawAllConfirm': 'Yes, withdraw all',
  'notice.withdrawCancel': 'Cancel',
  'notice.cookiePreferences': 'Cookie preferences',
  'age.question': 'Are you 18 or older?',
  'age.adult': 'Yes, I am 18 or older',
  'age.child': 'No, I am under 18',
  'age.guardianEmail': 'Email of your parent or guardian',
  'age.guardianHint': 'We ask them before we use your choices. Until they agree, nothing is used.',
} as const;

export type NoticeBannerWordKey = keyof typeof noticeBannerWords;
