const keyAttributes = new Set(['PK', 'SK', 'type', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK', 'GSI5PK', 'GSI5SK']);

/** An item as its entity: the table's key and index attributes, and the type tag, removed. */
export const entityOf = <T>(item: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;
