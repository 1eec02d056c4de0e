import type { LanguageCode } from '../i18n/languages';

/**
 * Every word of a breach intimation mail that is not the tenant's own text (its consequences,
 * mitigation, safety steps and contact, given per language with the intimation), with its English
 * default: the one label catalogue of the mail. `{name}` marks a value filled in when the mail is
 * written. Other languages give any subset and fall back to English key by key; the tenant may
 * override any key per language with the intimation (`labels`).
 */
export const defaultIntimationLabels = {
  subject: '{tenant}: a personal data breach that affects your data',
  opening: 'We are writing to tell you about a personal data breach at {tenant} that affects your personal data.',
  whatHappenedHeading: 'What happened',
  extentLine: 'Extent: {extent}',
  timingLine: 'When: it happened on {occurredAt}; {tenant} became aware of it on {awareAt}.',
  timingUnknown: 'When: {tenant} became aware of it on {awareAt}; when it happened is not yet known.',
  locationLine: 'Where: {location}',
  consequencesHeading: 'What this may mean for you',
  mitigationHeading: 'What we have done and are doing to reduce the risk',
  safetyStepsHeading: 'What you can do to protect yourself',
  contactHeading: 'Whom to contact',
  reference: 'Reference: {breachId}',
  why: 'The Digital Personal Data Protection Act, 2023 requires {tenant} to tell you about every personal data breach that affects your data.',
} as const satisfies Record<string, string>;

export type IntimationLabelKey = keyof typeof defaultIntimationLabels;
export type IntimationLabels = Record<IntimationLabelKey, string>;

export const intimationLabelKeys = Object.keys(defaultIntimationLabels) as [IntimationLabelKey, ...IntimationLabelKey[]];

const hindi: Partial<IntimationLabels> = {
  subject: '{tenant}: आपके डेटा को प्रभावित करने वाला व्यक्तिगत डेटा उल्लंघन',
  opening: 'हम आपको {tenant} में हुए एक व्यक्तिगत डेटा उल्लंघन के बारे में बता रहे हैं, जिससे आपका व्यक्तिगत डेटा प्रभावित हुआ है।',
  whatHappenedHeading: 'क्या हुआ',
  extentLine: 'सीमा: {extent}',
  timingLine: 'कब: यह {occurredAt} को हुआ; {tenant} को इसकी जानकारी {awareAt} को मिली।',
  timingUnknown: 'कब: {tenant} को इसकी जानकारी {awareAt} को मिली; यह कब हुआ, यह अभी ज्ञात नहीं है।',
  locationLine: 'कहाँ: {location}',
  consequencesHeading: 'आपके लिए इसका क्या अर्थ हो सकता है',
  mitigationHeading: 'जोखिम कम करने के लिए हमने क्या किया है और क्या कर रहे हैं',
  safetyStepsHeading: 'अपनी सुरक्षा के लिए आप क्या कर सकते हैं',
  contactHeading: 'किससे संपर्क करें',
  reference: 'संदर्भ: {breachId}',
  why: 'डिजिटल व्यक्तिगत डेटा संरक्षण अधिनियम, 2023 के अनुसार {tenant} को आपके डेटा को प्रभावित करने वाले हर व्यक्तिगत डेटा उल्लंघन के बारे में आपको बताना आवश्यक है।',
};

/** Built-in label sets beside English; a language may be added one key at a time. */
const builtIn: Partial<Record<LanguageCode, Partial<IntimationLabels>>> = { HI: hindi };

/** The labels of a language: the tenant's overrides, then the built-in set, then English, key by key. */
export const intimationLabels = (language: LanguageCode, overrides: Partial<IntimationLabels> = {}): IntimationLabels => {
  const labels = { ...defaultIntimationLabels } as IntimationLabels;
  for (const key of intimationLabelKeys) {
    const chosen = overrides[key] ?? builtIn[language]?.[key];
    if (chosen !== undefined) labels[key] = chosen;
  }
  return labels;
};

/** A label with its `{name}` slots filled; a slot without a value is left as written. */
export const fillLabel = (label: string, values: Readonly<Record<string, string>>): string =>
  label.replace(/\{([a-zA-Z]+)\}/g, (slot, name: string) => (Object.hasOwn(values, name) ? values[name]! : slot));
