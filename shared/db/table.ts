/**
 * The single table, declared as data: the CDK stack, the local stack and the tests create it
 * from this one description. Each entity's keys.ts says which key or index serves
 * each of their access patterns.
 */
export const tableDefinition = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Items with this epoch-seconds attribute are removed by DynamoDB TTL (rate counters, refresh tokens). */
  ttlAttribute: 'expiresAt',
  indexes: [
    /** Secondary lookups by another identity of an item (a tenant's API keys, a principal's records, pending outbox items). */
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /** A second ordering or grouping of a collection (consent records by status, tasks by state). */
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    /** Consent records by the tenant's external id of the principal. */
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    /** Fully withdrawn consent records by withdrawal time. */
    { name: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
    /** Consent records of the hash-chain era in chain order (read only to migrate them into the evidence log). */
    { name: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK' },
  ],
} as const;

export type IndexName = (typeof tableDefinition.indexes)[number]['name'];
