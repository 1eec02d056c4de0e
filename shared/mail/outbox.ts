import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import { tableName } from '../db/client';
import { outboxKeys } from '../events/keys';
import type { TransactItem } from '../db/transact';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A mail to send, put in the same transaction as the change it confirms: if the function dies
 * after the write, the drainer still sends it. Removed by TTL a week after it was queued.
 */
export const mailPut = (tenantId: string, mail: Mail): TransactItem => {
  const id = `mail_${randomUUID()}`;
  const at = nowIso();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...outboxKeys.event(tenantId, id),
        ...outboxKeys.pending('MAIL', at, id),
        type: 'OutboxMail',
        mail,
        expiresAt: Math.floor(Date.parse(at) / 1000) + 7 * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
};
