import { createHash, randomBytes } from 'node:crypto';
import { PutCommand } from '../db/commands';
import { nowIso } from '../clock';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import type { TransactItem } from '../db/transact';
import type { EmittedEventType, EventData } from './catalogue';
import { outboxKeys } from './keys';

/** The types an outbox event can carry: the catalogue's emitted ones. */
export type EventType = EmittedEventType;

/** The spec's webhook envelope; its `data` is the catalogue's payload for its type. */
export interface EventEnvelope<T extends EmittedEventType = EmittedEventType> {
  id: string;
  type: T;
  timestamp: string;
  tenantId: string;
  data: EventData<T>;
}

/**
 * The id of the event `type` reports about `sourceId` (a record id, say), the same every time: an
 * event derived from a stream record that is delivered again gets the same id, so deliveries
 * (keyed by event id) are not doubled.
 */
export const eventIdFor = (type: EventType, sourceId: string): string =>
  `evt_${createHash('sha256').update(`${type}:${sourceId}`).digest('hex').slice(0, 32)}`;

/**
 * An event envelope, its `data` typed by the catalogue for `type`. `id` and `timestamp` default to
 * a random id and now (events written with their change need no other); an event derived from a
 * stream record passes both, so that a replayed record yields the identical envelope, and so the
 * identical delivery keys.
 */
export const newEvent = <T extends EmittedEventType>(
  tenantId: string,
  type: T,
  data: EventData<T>,
  origin: { id?: string; timestamp?: string } = {},
): EventEnvelope<T> => ({
  id: origin.id ?? `evt_${randomBytes(16).toString('hex')}`,
  type,
  timestamp: origin.timestamp ?? nowIso(),
  tenantId,
  data,
});

/** The outbox item to put in the transaction of the change the event reports. */
export const outboxPut = (event: EventEnvelope): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...outboxKeys.event(event.tenantId, event.id),
      ...outboxKeys.pending('EVENT', event.timestamp, event.id),
      type: 'OutboxEvent',
      event,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** Writes the event to the outbox on its own (an event derived from the stream whose fan-out failed); once per event id. */
export const keepInOutbox = async (event: EventEnvelope): Promise<void> => {
  try {
    await db().send(new PutCommand(outboxPut(event).Put!));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
