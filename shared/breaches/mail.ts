import { sha256Hex } from '../crypto/hash';
import { isLanguageCode, type LanguageCode } from '../i18n/languages';
import { composeMail, readableTime, type MailText } from '../mail/compose';
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

type MailBreach = Pick<Breach, 'breachId' | 'awareAt' | 'occurredAt'>;

/**
 * Only texts written for principals reach them: what happened in the intimation's own words
 * (`whatHappened`), never the register's description, whose nature, extent and location are the
 * team's (a bucket, a region, a system's name). Times are the tenant's, in her language, with UTC.
 */
export const intimationMail = (to: string, tenant: { name: string; timeZone?: string | undefined }, breach: MailBreach, text: IntimationText, language: LanguageCode): Mail => {
  const words = language === 'EN' ? text : { ...text, ...text.translations?.[language] };
  const when = (iso: string) => readableTime(iso, language, tenant.timeZone);
  const values = {
    tenant: tenant.name,
    breachId: breach.breachId,
    awareAt: when(breach.awareAt),
    occurredAt: breach.occurredAt ? when(breach.occurredAt) : '',
  };
  const say = (key: IntimationLabelKey): MailText => {
    const own = language === 'EN' ? undefined : text.translations?.[language]?.labels?.[key];
    return own === undefined ? { text: fillWords(text.labels?.[key] ?? defaultIntimationLabel(key), values), language: 'EN' } : { text: fillWords(own, values), language };
  };
  const theirs = (value: string): MailText => ({ text: value, language });
  const timing = say(breach.occurredAt ? 'timingLine' : 'timingUnknown');
  return composeMail(to, language, say('subject').text, [
    say('opening'),
    [say('whatHappenedHeading'), theirs(words.whatHappened), timing],
    [say('consequencesHeading'), theirs(words.consequences)],
    [say('mitigationHeading'), theirs(words.mitigation)],
    [say('safetyStepsHeading'), theirs(words.safetySteps)],
    [say('contactHeading'), theirs(text.contact)],
    [say('why'), say('reference')],
  ]);
};

/** The outbox id of a principal's intimation mail: the same on every retry, so it is queued once. */
export const intimationMailId = (breachId: string, principalHash: string) => `mail_breach_${sha256Hex(`${breachId}:${principalHash}`).slice(0, 32)}`;
