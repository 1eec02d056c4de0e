import { guardianPageUrl } from '../consent/portal-urls';
import { decryptSecret } from '../crypto/secret-box';
import { composeMail, readableTime } from '../mail/compose';
import type { Mail } from '../mail/outbox';
import { guardianMailWords } from '../words/children-words';
import { recordedLanguage, wordsFor } from '../words/read';
import { tokenOf, type GuardianRequest } from './request';

/**
 * The guardian's mails, in the language the child saw, in the tenant's words: the request with its
 * single-use link (the link is derived here from the request and its generation: request.ts), and
 * the receipt of an approval with a withdrawal link like every other.
 */
export const guardianRequestMail = async (request: GuardianRequest, tenantName: string): Promise<Mail> => {
  const { language, say } = await wordsFor(request.tenantId, recordedLanguage(request.language), guardianMailWords);
  const guarded = request.principalStatus === 'GUARDED';
  return composeMail(decryptSecret(request.sealedGuardianEmail), language, say(guarded ? 'mail.guardian.requestSubjectGuarded' : 'mail.guardian.requestSubject', { tenant: tenantName }).text, [
    say('mail.guardian.requestText', { tenant: tenantName, url: guardianPageUrl(tokenOf(request.requestId, request.generation)), expiresAt: (shownIn) => readableTime(request.expiresAt, shownIn) }),
  ]);
};

export const guardianReceiptMail = async (
  request: GuardianRequest,
  tenantName: string,
  approval: { at: string; purposeNames: string[]; reference: string; withdrawalUrl: string; withdrawalExpiresAt: string },
): Promise<Mail> => {
  const { language, say } = await wordsFor(request.tenantId, recordedLanguage(request.language), guardianMailWords);
  const purposes = approval.purposeNames.length > 0 ? approval.purposeNames.join(', ') : say('mail.guardian.nothing').text;
  return composeMail(decryptSecret(request.sealedGuardianEmail), language, say('mail.guardian.receiptSubject', { tenant: tenantName }).text, [
    say('mail.guardian.receiptText', {
      at: (shownIn) => readableTime(approval.at, shownIn),
      purposes,
      reference: approval.reference,
      url: approval.withdrawalUrl,
      expiresAt: (shownIn) => readableTime(approval.withdrawalExpiresAt, shownIn),
    }),
  ]);
};
