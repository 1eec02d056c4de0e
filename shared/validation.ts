import type { z } from 'zod';
import { ValidationError } from './errors';

/**
 * zod issues → the spec's `fields`: the field's own name (`limit`, `keyId`, or a dotted path
 * inside a body such as `purposeConfig.0.purposeId`) to one message each. An unknown key is
 * reported at its own path so the caller sees which field to drop.
 *
 * The map has no prototype: its keys come from the request, and a plain object would already
 * "have" `toString` or `constructor`, so `??=` would assign nothing and an invalid request
 * would look valid. Validation never relies on the map being non-empty anyway (see parseInput).
 */
export const fieldsOf = (error: z.ZodError, root = 'body'): Record<string, string> => {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const add = (name: string, message: string) => {
    if (!Object.hasOwn(fields, name)) fields[name] = message;
  };
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, 'Unknown field');
      continue;
    }
    add(base || root, issue.message);
  }
  if (Object.keys(fields).length === 0) add(root, 'Invalid value');
  return fields;
};

/**
 * Keys that name a member of Object.prototype (`__proto__`, `constructor`, `toString`, …) or
 * `prototype`. No field of this API is called that, and in a map keyed by user input such a key
 * either vanishes (zod drops `__proto__` from records), changes an object's prototype, or shadows
 * a method, so anywhere in a request it is refused by name rather than risked.
 */
const isPrototypeKey = (key: string): boolean => key === '__proto__' || key === 'prototype' || Object.hasOwn(Object.prototype, key);

/** Dotted paths of every prototype-named key in a parsed JSON value, at any depth. */
export const prototypeKeyPaths = (value: unknown, path: string[] = []): string[] => {
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    const at = [...path, key];
    if (isPrototypeKey(key)) found.push(at.join('.'));
    found.push(...prototypeKeyPaths((value as Record<string, unknown>)[key], at));
  }
  return found;
};

/** Parses or throws: the caller gets data only when parsing succeeded (fails closed). */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.output<S> => {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldsOf(result.error, root), 'Request validation failed', result.error);
  return result.data;
};
