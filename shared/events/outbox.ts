import { randomBytes } from 'node:crypto';
import { nowIso } from '../clock';
import { tableName } from '../db/client';
import type { TransactItem } from '../db/transact';
import { outboxKeys } from './keys';

export type EventType = 'consent.recorded' | 'consent.withdrawn' | 'notice.published' | 'webhook.test';

/** The spec's webhook envelope. */
export interface EventEnvelope {
  id: string;
  type: EventType;
  timestamp: string;
  tenantId: string;
  data: Record<string, unknown>;
}

export const newEvent = (tenantId: string, type: EventType, data: Record<string, unknown>): EventEnvelope => ({
  id: `evt_${randomBytes(16).toString('hex')}`,
  type,
  timestamp: nowIso(),
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
