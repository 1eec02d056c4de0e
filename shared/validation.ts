import type { z } from 'zod';
import { ValidationError } from './errors';

/**
 * zod issues → the spec's `fields`: dotted paths (`purposeConfig.0.purposeId`) to one message
 * each. An unknown key is reported at its own path so the caller sees which field to drop.
 */
export const fieldsOf = (error: z.ZodError, root = 'body'): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[base ? `${base}.${key}` : key] ??= 'Unknown field';
      continue;
    }
    fields[base || root] ??= issue.message;
  }
  return fields;
};

export const parseInput = <S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.output<S> => {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldsOf(result.error, root), 'Request validation failed', result.error);
  return result.data;
};
