import { ConflictError } from '../errors';
import { log } from '../log';

const keyAttributes = new Set(['PK', 'SK', 'type', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK', 'GSI5PK', 'GSI5SK']);

/** An item as its entity: the table's key and index attributes, and the type tag, removed. */
export const entityOf = <T>(item: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;

/** The fields an entity cannot be used without, and the JSON type each must have. */
export type RequiredShape = Readonly<Record<string, 'string' | 'number' | 'boolean' | 'array'>>;

const missingFields = (item: Record<string, unknown>, shape: RequiredShape): string[] =>
  Object.entries(shape)
    .filter(([name, kind]) => (kind === 'array' ? !Array.isArray(item[name]) : typeof item[name] !== kind))
    .map(([name]) => name);

/**
 * A stored item that lacks required fields (written by a bug, or by hand) is corrupt. It is
 * never passed on as if it were whole: reading it alone is a clear 409 naming it, and the
 * defect is logged with its key so an operator can repair it.
 */
export class CorruptItemError extends ConflictError {
  constructor(what: string, id: string, missing: string[]) {
    super(`${what} ${id} is stored incomplete (missing ${missing.join(', ')}) and cannot be used until it is repaired`);
  }
}

const reportCorrupt = (item: Record<string, unknown>, what: string, missing: string[]) =>
  log.error('corrupt item', { what, PK: item.PK, SK: item.SK, missing });

/** The entity, or a CorruptItemError when the item lacks a required field. */
export const checkedEntityOf = <T>(item: Record<string, unknown>, shape: RequiredShape, what: string, idField: string): T => {
  const missing = missingFields(item, shape);
  if (missing.length > 0) {
    reportCorrupt(item, what, missing);
    throw new CorruptItemError(what, String(item[idField] ?? item.SK), missing);
  }
  return entityOf<T>(item);
};

/** Entities of a listing: a corrupt item is logged and left out, so one bad item never fails the whole list. */
export const soundEntitiesOf = <T>(items: Record<string, unknown>[], shape: RequiredShape, what: string): T[] =>
  items.flatMap((item) => {
    const missing = missingFields(item, shape);
    if (missing.length === 0) return [entityOf<T>(item)];
    reportCorrupt(item, what, missing);
    return [];
  });
