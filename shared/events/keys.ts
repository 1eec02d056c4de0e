/**
 * Outbox keys. An event or a mail is written in the same transaction as the change it reports,
 * so a crash after the write cannot lose it; a drainer (DynamoDB Streams in AWS, the local
 * worker loop here) sends it on and takes it out of the pending index.
 *
 * Access patterns:
 * - pending items of a kind, oldest first .. Query GSI1 GSI1PK=OUTBOX#<EVENT|MAIL>, GSI1SK < '~'
 *   (the drainer removes the GSI1 keys once the item is handed on)
 * - items a drainer failed, due first ....... Query GSI1 same partition, GSI1SK '~<retry at>#<id>' up to now
 *   (a failed item moves behind every fresh one, so a poison item never holds the others up)
 * - a mail's send lease ...................... Put PK=<item PK> SK=LEASE#<item SK> (conditional; TTL a day)
 */
export type OutboxKind = 'EVENT' | 'MAIL';

export const outboxKeys = {
  event: (tenantId: string, itemId: string) => ({ PK: `TENANT#${tenantId}`, SK: `OUTBOX#${itemId}` }),
  pending: (kind: OutboxKind, timestamp: string, itemId: string) => ({ GSI1PK: outboxKeys.pendingPartition(kind), GSI1SK: `${timestamp}#${itemId}` }),
  pendingPartition: (kind: OutboxKind) => `OUTBOX#${kind}`,
  /** '~' sorts after every ISO timestamp: retries wait behind fresh items, ordered by when they are due. */
  deferred: (retryAt: string, itemId: string) => ({ GSI1SK: `~${retryAt}#${itemId}` }),
  deferredPrefix: '~',
  lease: (item: { PK: string; SK: string }) => ({ PK: item.PK, SK: `LEASE#${item.SK}` }),
};
