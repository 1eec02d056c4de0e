import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import { tableName } from '../db/client';
import { outboxKeys } from '../events/keys';
import type { TransactItem } from '../db/transact';
import { withSafeHeaders } from './headers';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** A principal's mail also has an HTML part carrying its language and direction (compose.ts). */
  html?: string;
}

/**
 * A mail to send, put in the same transaction as the change it confirms: if the function dies
 * after the write, the drainer still sends it. Removed by TTL a week after it was queued. A caller
 * that may write the same mail twice (a retried batch) names it with `id`: the put is conditional,
 * so the second write fails instead of queueing a second mail. Its header fields are made safe
 * here (headers.ts): a subject's line breaks fold, an address with one is refused.
 */
export const mailPut = (tenantId: string, mail: Mail, id = `mail_${randomUUID()}`): TransactItem => {
  const at = nowIso();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...outboxKeys.event(tenantId, id),
        ...outboxKeys.pending('MAIL', at, id),
        type: 'OutboxMail',
        mail: withSafeHeaders(mail),
        expiresAt: Math.floor(Date.parse(at) / 1000) + 7 * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
};
