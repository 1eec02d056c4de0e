import { eventIdFor, keepInOutbox, newEvent } from '../events/outbox';
import { PutCommand } from '../db/commands';
import { db } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { mailPut } from '../mail/outbox';
import { sendMail } from '../mail/ses';
import type { StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { getTenant } from '../tenants/store';
import { fanOutEvents } from '../webhooks/fanout';
import { guardianRequestMail } from './mails';
import type { GuardianRequest } from './request';
import { requestItemType, requestOf } from './store';

/**
 * The guardian's link leaves from the table's stream, not with the write that made it, so that a
 * child's decision costs two writes (the record and its request) and one mail: a new request
 * (INSERT) and a resend (MODIFY to a new generation of the link) each mail the link of their
 * generation, and a new request also sends consent.guardian_requested. A replayed stream record
 * mails the same link again (it is derived, not random: nothing is voided by a second copy) and
 * yields the identical event, whose deliveries are not doubled.
 */
const linksToMail = (changes: StreamChange[]): GuardianRequest[] =>
  changes.flatMap((change) => {
    if (!change.newImage) return [];
    const next = requestOf(change.newImage);
    if (next.status !== 'PENDING') return [];
    const before = change.oldImage ? requestOf(change.oldImage) : undefined;
    return !before || before.generation < next.generation ? [next] : [];
  });

const requestedEvents = (changes: StreamChange[]) =>
  changes
    .filter((change) => change.eventName === 'INSERT' && change.newImage)
    .map((change) => requestOf(change.newImage!))
    .map((request) =>
      newEvent(
        request.tenantId,
        'consent.guardian_requested',
        {
          requestId: request.requestId,
          consentRecordId: request.consentRecordId,
          dataPrincipalHash: request.dataPrincipalHash,
          principalStatus: request.principalStatus,
          noticeId: request.noticeId,
          requestedAt: request.createdAt,
          expiresAt: request.expiresAt,
        },
        { id: eventIdFor('consent.guardian_requested', request.requestId), timestamp: request.createdAt },
      ),
    );

const mailsOf = async (requests: GuardianRequest[]) =>
  Promise.all(requests.map(async (request) => ({ request, mail: await guardianRequestMail(request, (await getTenant(request.tenantId))?.name ?? '') })));

export const guardianRequestsConsumer: StreamConsumer = {
  name: 'guardian requests',
  itemTypes: [requestItemType],
  eventNames: ['INSERT', 'MODIFY'],
  handle: async (changes) => {
    for (const { mail } of await mailsOf(linksToMail(changes))) await sendMail(mail);
    await fanOutEvents(requestedEvents(changes));
  },
  // A tenant whose links could not be mailed: the mails go to the outbox (one per request and link,
  // so a second park queues none twice), whose drains retry them; the events likewise.
  park: async (_tenantId, changes) => {
    for (const { request, mail } of await mailsOf(linksToMail(changes))) {
      try {
        await db().send(new PutCommand(mailPut(request.tenantId, mail, `mail_guardian_${request.requestId}_${request.generation}`).Put!));
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    for (const event of requestedEvents(changes)) await keepInOutbox(event);
  },
};
