import { eventIdFor, keepInOutbox, newEvent } from '../events/outbox';
import type { StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { fanOutEvents } from '../webhooks/fanout';
import { consentInForce, inForce, type ConsentRecord } from './record';
import { recordItemType, recordOf } from './record-item';

/**
 * consent.recorded comes from the table's stream rather than from an outbox item written with
 * the record, so recording a consent stays one write. The event id is derived from the record
 * id and its time from the record's: a redelivered stream batch produces the identical event,
 * and deliveries (keyed by event id and time) are not doubled.
 */
export const recordedEventOf = (record: ConsentRecord) =>
    newEvent(
      record.tenantId,
      'consent.recorded',
      {
        consentRecordId: record.recordId,
        dataPrincipalHash: record.dataPrincipalHash,
        consents: consentInForce(record),
        noticeId: record.noticeId,
        noticeVersionId: `${record.noticeId}:${record.noticeVersionNumber}`,
        noticeVersionNumber: record.noticeVersionNumber,
        recordedAt: record.createdAt,
      },
      { id: eventIdFor('consent.recorded', record.recordId), timestamp: record.createdAt },
    );

/**
 * A record not in force when written (a child's decision awaiting the parent) sends nothing now:
 * its consent.recorded is sent with the guardian's approval (children/approval.ts), under the same
 * event id, with the consents then in force.
 */
const eventsOf = (changes: StreamChange[]) =>
  changes.flatMap((change) => (change.newImage ? [recordOf(change.newImage)] : [])).filter(inForce).map(recordedEventOf);

export const recordedEventsConsumer: StreamConsumer = {
  name: 'consent.recorded events',
  itemTypes: [recordItemType],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    await fanOutEvents(eventsOf(changes));
  },
  // A tenant's events that could not be fanned out go to the outbox, whose drains retry them; the
  // same event ids, so deliveries already made are not made twice.
  park: async (_tenantId, changes) => {
    for (const event of eventsOf(changes)) await keepInOutbox(event);
  },
};
