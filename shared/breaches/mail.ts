import { sha256Hex } from '../crypto/hash';
import { isLanguageCode, type LanguageCode } from '../i18n/languages';
import { composeMail, type MailText } from '../mail/compose';
import type { Mail } from '../mail/outbox';
import { fillWords } from '../words/fill';
import type { Breach } from './breach';
import { defaultIntimationLabel, type IntimationLabelKey } from './mail-labels';
import type { IntimationText } from './schemas';

/**
 * The mail that intimates one principal of a breach (Rule 7(1)): (a) what happened (nature,
 * extent, timing, location), (b) the likely consequences for her, (c) what has been and is being
 * done, (d) what she can do, (e) whom to contact. The tenant's words in her language when the
 * intimation has them, the run's labels around them (mail-labels.ts): a label her language lacks
 * is in English, and the mail's HTML part marks it so.
 */

/** The language a principal is written to: the one of her latest consent, when the intimation has texts in it. */
export const mailLanguage = (recorded: string | undefined, text: IntimationText): LanguageCode =>
  recorded !== undefined && isLanguageCode(recorded) && recorded !== 'EN' && text.translations?.[recorded] ? recorded : 'EN';

/** Times in a mail: unambiguous in every language (no month names), UTC. */
export const mailTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

type MailBreach = Pick<Breach, 'breachId' | 'awareAt' | 'occurredAt' | 'nature' | 'extent' | 'location'>;

export const intimationMail = (to: string, tenantName: string, breach: MailBreach, text: IntimationText, language: LanguageCode): Mail => {
  const words = language === 'EN' ? text : { ...text, ...text.translations?.[language] };
  const values = {
    tenant: tenantName,
    breachId: breach.breachId,
    extent: breach.extent,
    location: breach.location,
    awareAt: mailTime(breach.awareAt),
    occurredAt: breach.occurredAt ? mailTime(breach.occurredAt) : '',
  };
  const say = (key: IntimationLabelKey): MailText => {
    const own = language === 'EN' ? undefined : text.translations?.[language]?.labels?.[key];
    return own === undefined ? { text: fillWords(text.labels?.[key] ?? defaultIntimationLabel(key), values), language: 'EN' } : { text: fillWords(own, values), language };
  };
  const theirs = (value: string): MailText => ({ text: value, language });
  const english = (value: string): MailText => ({ text: value, language: 'EN' });
  const timing = say(breach.occurredAt ? 'timingLine' : 'timingUnknown');
  // The breach's own nature is the register's English; a whatHappened of the language replaces it.
  const whatHappened = words.whatHappened ? [theirs(words.whatHappened), timing] : [english(breach.nature), say('extentLine'), timing, say('locationLine')];
  return composeMail(to, language, say('subject').text, [
    say('opening'),
    [say('whatHappenedHeading'), ...whatHappened],
    [say('consequencesHeading'), theirs(words.consequences)],
    [say('mitigationHeading'), theirs(words.mitigation)],
    [say('safetyStepsHeading'), theirs(words.safetySteps)],
    [say('contactHeading'), theirs(text.contact)],
    [say('why'), say('reference')],
  ]);
};

/** The outbox id of a principal's intimation mail: the same on every retry, so it is queued once. */
export const intimationMailId = (breachId: string, principalHash: string) => `mail_breach_${sha256Hex(`${breachId}:${principalHash}`).slice(0, 32)}`;
