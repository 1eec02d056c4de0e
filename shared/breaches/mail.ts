import { sha256Hex } from '../crypto/hash';
import { isLanguageCode, type LanguageCode } from '../i18n/languages';
import type { Mail } from '../mail/outbox';
import type { Breach } from './breach';
import { fillLabel, intimationLabels } from './mail-labels';
import type { IntimationText } from './schemas';

/**
 * The mail that intimates one principal of a breach (Rule 7(1)): (a) what happened (nature,
 * extent, timing, location), (b) the likely consequences for her, (c) what has been and is being
 * done, (d) what she can do, (e) whom to contact. Plain text; the tenant's words in her language
 * when the intimation has them, the label catalogue's around them.
 */

/** The language a principal is written to: the one of her latest consent, when the intimation has texts in it. */
export const mailLanguage = (recorded: string | undefined, text: IntimationText): LanguageCode =>
  recorded !== undefined && isLanguageCode(recorded) && recorded !== 'EN' && text.translations?.[recorded] ? recorded : 'EN';

/** Times in a mail: unambiguous in every language (no month names), UTC. */
export const mailTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

type MailBreach = Pick<Breach, 'breachId' | 'awareAt' | 'occurredAt' | 'nature' | 'extent' | 'location'>;

export const intimationMail = (to: string, tenantName: string, breach: MailBreach, text: IntimationText, language: LanguageCode): Mail => {
  const words = language === 'EN' ? text : { ...text, ...text.translations?.[language] };
  const labels = intimationLabels(language, words.labels ?? {});
  const values = {
    tenant: tenantName,
    breachId: breach.breachId,
    extent: breach.extent,
    location: breach.location,
    awareAt: mailTime(breach.awareAt),
    occurredAt: breach.occurredAt ? mailTime(breach.occurredAt) : '',
  };
  const say = (label: string) => fillLabel(label, values);
  const timing = say(breach.occurredAt ? labels.timingLine : labels.timingUnknown);
  const whatHappened = words.whatHappened ? [words.whatHappened, timing] : [breach.nature, say(labels.extentLine), timing, say(labels.locationLine)];
  const section = (heading: string, ...lines: string[]) => [say(heading), ...lines].join('\n');
  return {
    to,
    subject: say(labels.subject),
    text: [
      say(labels.opening),
      section(labels.whatHappenedHeading, ...whatHappened),
      section(labels.consequencesHeading, words.consequences),
      section(labels.mitigationHeading, words.mitigation),
      section(labels.safetyStepsHeading, words.safetySteps),
      section(labels.contactHeading, text.contact),
      [say(labels.why), say(labels.reference)].join('\n'),
    ].join('\n\n'),
  };
};

/** The outbox id of a principal's intimation mail: the same on every retry, so it is queued once. */
export const intimationMailId = (breachId: string, principalHash: string) => `mail_breach_${sha256Hex(`${breachId}:${principalHash}`).slice(0, 32)}`;
