/**
 * Outbox keys. An event is written in the same transaction as the change it reports, so a
 * crash after the write cannot lose it; a drainer (DynamoDB Streams in AWS, the local worker
 * loop here) moves it to the delivery queue.
 *
 * Access patterns:
 * - pending events, oldest first .. Query GSI1 GSI1PK=OUTBOX#PENDING (the drainer removes GSI1 keys once enqueued)
 */
export const outboxKeys = {
  event: (tenantId: string, eventId: string) => ({ PK: `TENANT#${tenantId}`, SK: `EVENT#${eventId}` }),
  pending: (timestamp: string, eventId: string) => ({ GSI1PK: 'OUTBOX#PENDING', GSI1SK: `${timestamp}#${eventId}` }),
};
