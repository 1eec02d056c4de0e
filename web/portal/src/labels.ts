import { rightsPageEnglish, rightsPageHindi } from '../../../shared/rights/labels';

/**
 * The page chrome's words. English is complete; every other language may give any subset and
 * falls back to English key by key, so a language can be added one string at a time. The notice
 * itself (title, purposes, rights, complaint) comes translated from the tenant through the API.
 * `{name}` marks a value filled in at run time. The words of the rights pages live in the rights
 * catalogue (shared/rights/labels.ts), with the principal's mails, and are merged in here.
 */
const withdrawalEnglish = {
  language: 'Language',
  loading: 'Loading…',
  pageTitle: 'Withdraw your consent',
  intro: '{tenant} recorded the consent below. You can withdraw it, for every purpose or only some, at any time.',
  notice: 'Notice',
  version: 'version {version}',
  consentedAt: 'Consent given on',
  purposesHeading: 'Your consent, purpose by purpose',
  granted: 'Consent given',
  withdrawn: 'Withdrawn',
  notGiven: 'Not given',
  required: 'Required',
  requiredHint: 'A required purpose is one the service cannot be provided without. You may still withdraw it.',
  choiceLegend: 'What do you want to withdraw?',
  withdrawAll: 'All my consent for this notice',
  withdrawSome: 'Only the purposes I choose',
  purposesLegend: 'Purposes to withdraw',
  chooseOne: 'Choose at least one purpose to withdraw.',
  reason: 'Reason (optional, up to 500 characters)',
  meaningHeading: 'What withdrawing means',
  meaning:
    'Once you withdraw, {tenant} must stop processing your personal data for what you withdrew, and have anyone who processes it for them stop too. Processing done before you withdrew stays lawful. If you withdraw a required purpose, the service that depends on it may no longer be available to you.',
  submit: 'Withdraw consent',
  submitting: 'Withdrawing…',
  nothingLeft: 'There is nothing left to withdraw: this consent has already been fully withdrawn.',
  contactHeading: 'Questions and complaints',
  rights: 'Your rights',
  contact: 'Contact the Data Protection Officer:',
  complaint: 'How to complain',
  board:
    'If {tenant} does not resolve your grievance, you may complain to the Data Protection Board of India under the Digital Personal Data Protection Act, 2023.',
  doneHeading: 'Your withdrawal is recorded',
  doneText: '{tenant} has been told to stop processing your personal data for what you withdrew.',
  reference: 'Reference',
  recordedAt: 'Recorded at',
  purposesWithdrawn: 'Purposes withdrawn',
  actBy: 'To be acted on by',
  allPurposes: 'All purposes',
  doneMail: 'Keep the reference. A confirmation is sent by email when we have your address.',
  expiredHeading: 'This link has expired',
  expiredText: 'Withdrawal links work for 7 days, and this one has expired. Opening it changed nothing.',
  expiredAt: 'Expired on',
  usedHeading: 'This link has already been used',
  usedText: 'Each withdrawal link works once, and this one has already been used to withdraw consent.',
  usedAt: 'Used on',
  newLink: 'Get a new withdrawal link from {tenant}',
  askOrganisation: 'To withdraw consent, ask the organisation for a new link, or use the withdrawal page on its website.',
  invalidHeading: 'This link is not valid',
  invalidText: 'Check that the whole link from your email was opened, or ask the organisation for a new one.',
  failed: 'Something went wrong and nothing was changed. Please try again in a moment.',
  publicHeading: 'Withdraw consent given to this organisation',
  publicIntro:
    'Enter the email address you gave when you consented. If it has consent on record, we send it a link that shows your consent and lets you withdraw it. The link works once, for 7 days.',
  email: 'Email address',
  emailInvalid: 'Enter an email address, such as name@example.com.',
  sendLink: 'Email me a withdrawal link',
  sending: 'Sending…',
  sentHeading: 'Check your email',
  sentText: 'If {email} has consent on record with this organisation, a withdrawal link is on its way. It works once, for 7 days.',
  rateLimited: 'Too many requests. Please wait a while and try again.',
  unknownOrganisation: 'No organisation uses this withdrawal page address. Check the link on its website.',
};

export const english = { ...withdrawalEnglish, ...rightsPageEnglish };

export type LabelKey = keyof typeof english;
export type Labels = Record<LabelKey, string>;

const hindi: Partial<Labels> = {
  ...rightsPageHindi,
  language: 'भाषा',
  loading: 'लोड हो रहा है…',
  pageTitle: 'अपनी सहमति वापस लें',
  intro: '{tenant} ने नीचे दी गई सहमति दर्ज की है। आप इसे कभी भी, सभी प्रयोजनों के लिए या केवल कुछ के लिए, वापस ले सकते हैं।',
  notice: 'सूचना',
  version: 'संस्करण {version}',
  consentedAt: 'सहमति दी गई',
  purposesHeading: 'प्रयोजन के अनुसार आपकी सहमति',
  granted: 'सहमति दी गई',
  withdrawn: 'वापस ली गई',
  notGiven: 'नहीं दी गई',
  required: 'आवश्यक',
  choiceLegend: 'आप क्या वापस लेना चाहते हैं?',
  withdrawAll: 'इस सूचना के लिए मेरी पूरी सहमति',
  withdrawSome: 'केवल मेरे चुने हुए प्रयोजन',
  purposesLegend: 'वापस लेने के प्रयोजन',
  chooseOne: 'वापस लेने के लिए कम से कम एक प्रयोजन चुनें।',
  reason: 'कारण (वैकल्पिक, अधिकतम 500 अक्षर)',
  meaningHeading: 'सहमति वापस लेने का अर्थ',
  submit: 'सहमति वापस लें',
  submitting: 'वापस ली जा रही है…',
  contactHeading: 'प्रश्न और शिकायतें',
  rights: 'आपके अधिकार',
  contact: 'डेटा संरक्षण अधिकारी से संपर्क करें:',
  complaint: 'शिकायत कैसे करें',
  doneHeading: 'आपकी सहमति वापसी दर्ज हो गई है',
  reference: 'संदर्भ',
  recordedAt: 'दर्ज करने का समय',
  purposesWithdrawn: 'वापस लिए गए प्रयोजन',
  actBy: 'कार्रवाई की अंतिम तिथि',
  allPurposes: 'सभी प्रयोजन',
  expiredHeading: 'इस लिंक की अवधि समाप्त हो गई है',
  newLink: '{tenant} से सहमति वापसी का नया लिंक पाएं',
  usedHeading: 'इस लिंक का उपयोग पहले ही हो चुका है',
  invalidHeading: 'यह लिंक मान्य नहीं है',
  email: 'ईमेल पता',
  sendLink: 'मुझे सहमति वापसी का लिंक ईमेल करें',
  sentHeading: 'अपना ईमेल देखें',
  publicHeading: 'इस संगठन को दी गई सहमति वापस लें',
  publicIntro:
    'सहमति देते समय आपने जो ईमेल पता दिया था, उसे दर्ज करें। यदि उस पते पर सहमति दर्ज है, तो हम उस पर एक लिंक भेजेंगे जिससे आप अपनी सहमति देख और वापस ले सकते हैं। यह लिंक 7 दिनों तक केवल एक बार काम करता है।',
  sentText: 'यदि {email} की इस संगठन के पास सहमति दर्ज है, तो सहमति वापसी का लिंक भेजा जा रहा है। यह 7 दिनों तक केवल एक बार काम करता है।',
  emailInvalid: 'ईमेल पता दर्ज करें, जैसे name@example.com।',
  sending: 'भेजा जा रहा है…',
  rateLimited: 'बहुत अधिक अनुरोध। कृपया कुछ देर बाद फिर से प्रयास करें।',
  failed: 'कुछ गलत हो गया और कुछ भी नहीं बदला गया। कृपया थोड़ी देर बाद फिर से प्रयास करें।',
  meaning:
    'सहमति वापस लेने के बाद {tenant} को, आपने जो वापस लिया है उसके लिए, आपके व्यक्तिगत डेटा का प्रसंस्करण बंद करना होगा, और उसकी ओर से प्रसंस्करण करने वालों से भी बंद करवाना होगा। वापसी से पहले किया गया प्रसंस्करण वैध रहता है। यदि आप कोई आवश्यक प्रयोजन वापस लेते हैं, तो उस पर निर्भर सेवा शायद आपको उपलब्ध न रहे।',
  board: 'यदि {tenant} आपकी शिकायत का समाधान नहीं करता है, तो आप डिजिटल व्यक्तिगत डेटा संरक्षण अधिनियम, 2023 के तहत भारत के डेटा संरक्षण बोर्ड में शिकायत कर सकते हैं।',
  doneText: '{tenant} से कहा गया है कि आपने जो वापस लिया है उसके लिए आपके व्यक्तिगत डेटा का प्रसंस्करण बंद करे।',
  expiredText: 'सहमति वापसी के लिंक 7 दिनों तक काम करते हैं, और इस लिंक की अवधि समाप्त हो गई है। इसे खोलने से कुछ नहीं बदला।',
  usedText: 'हर सहमति वापसी लिंक केवल एक बार काम करता है, और इस लिंक से पहले ही सहमति वापस ली जा चुकी है।',
  nothingLeft: 'वापस लेने के लिए कुछ नहीं बचा है: यह सहमति पहले ही पूरी तरह वापस ली जा चुकी है।',
};

/** Every language the service knows: English and the 22 of the Eighth Schedule (shared/i18n/languages.ts). */
const translations: Record<string, Partial<Labels>> = {
  EN: english,
  AS: {},
  BN: {},
  BRX: {},
  DOI: {},
  GU: {},
  HI: hindi,
  KN: {},
  KS: {},
  KOK: {},
  MAI: {},
  ML: {},
  MNI: {},
  MR: {},
  NE: {},
  OR: {},
  PA: {},
  SA: {},
  SAT: {},
  SD: {},
  TA: {},
  TE: {},
  UR: {},
};

/** Every language with a slot, translated or not (a test holds it to shared/i18n/languages.ts). */
export const translationSlots = Object.keys(translations);

/** Languages whose chrome has at least one translated label: the public page offers these. */
export const chromeLanguages = Object.keys(translations).filter((code) => Object.keys(translations[code] ?? {}).length > 0);

/**
 * The label in `language`, else English, with `{name}` values filled in (as text, never HTML), and
 * the language it is actually in, so a fallback can be marked as English.
 */
export const label = (language: string, key: LabelKey, values: Record<string, string | number> = {}): { text: string; language: string } => {
  const own = translations[language]?.[key];
  const template = own ?? english[key];
  return {
    text: template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match)),
    language: own === undefined ? 'EN' : language,
  };
};
