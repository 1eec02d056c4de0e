import * as z from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { ValidationError } from './errors';

/**
 * The English messages every field message is built from. zod's classic API installs them when
 * imported; the schemas are written with zod/mini (a tenth of its size in a bundle), which ships none,
 * so the one module that turns issues into messages installs them before anything parses.
 */
z.config(en());

/**
 * zod issues → the spec's `fields`: the field's own name (`limit`, `keyId`, or a dotted path
 * inside a body such as `purposeConfig.0.purposeId`) to one message each. An unknown key is
 * reported at its own path so the caller sees which field to drop.
 *
 * The map has no prototype: its keys come from the request, and a plain object would already
 * "have" `toString` or `constructor`, so `??=` would assign nothing and an invalid request
 * would look valid. Validation never relies on the map being non-empty anyway (see parseInput).
 */
export const fieldsOf = (error: z.$ZodError, root = 'body'): Record<string, string> => {
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

/**
 * How deep a request's JSON may nest (objects and arrays inside one another). No body of this API
 * needs more than a handful of levels; anything past this is refused before any code walks it, so
 * no walk over input can run out of stack (a 5,000-level body once answered 500).
 */
export const maxJsonDepth = 64;

/** What the walk over a parsed request part found: prototype-named keys, and whether it nests too deep. */
export interface JsonInspection {
  /** Dotted paths of every prototype-named key, in document order. */
  prototypeKeys: string[];
  /** The path of the first container nested deeper than maxJsonDepth, if any (the walk stops there). */
  tooDeepAt?: string;
}

/** A value met on the walk: its key and its parent's step, so a path is spelled out only when reported. */
interface Step {
  value: unknown;
  key?: string;
  parent?: Step;
  depth: number;
}

const pathOf = (step: Step): string => {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * Walks a parsed JSON value iteratively (an explicit stack, never recursion; linear in its size),
 * bounded by maxDepth, collecting the paths of prototype-named keys at any depth.
 */
export const inspectJson = (value: unknown, maxDepth = maxJsonDepth): JsonInspection => {
  const prototypeKeys: string[] = [];
  const pending: Step[] = [{ value, depth: 0 }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    if (step.key !== undefined && isPrototypeKey(step.key)) prototypeKeys.push(pathOf(step));
    const current = step.value;
    if (typeof current !== 'object' || current === null) continue;
    // The root container is level 1.
    if (step.depth + 1 > maxDepth) return { prototypeKeys, tooDeepAt: pathOf(step) };
    const keys = Object.keys(current);
    // Pushed in reverse, so keys are visited in document order (depth first, as JSON reads).
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index]!;
      pending.push({ value: (current as Record<string, unknown>)[key], key, parent: step, depth: step.depth + 1 });
    }
  }
  return { prototypeKeys };
};

/** Parses or throws: the caller gets data only when parsing succeeded (fails closed). */
export const parseInput = <S extends z.$ZodType>(schema: S, input: unknown, root = 'body'): z.output<S> => {
  const result = z.safeParse(schema, input);
  if (!result.success) throw new ValidationError(fieldsOf(result.error, root), 'Request validation failed', result.error);
  return result.data;
};
