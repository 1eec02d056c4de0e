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
    /** Secondary lookups by another identity of an item (tenant's API keys, ...). */
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /** A second ordering of the same collection (e.g. records by withdrawal time). */
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ],
} as const;

export type IndexName = (typeof tableDefinition.indexes)[number]['name'];
