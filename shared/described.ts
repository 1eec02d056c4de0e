import * as z from 'zod/mini';

/**
 * What zod's classic `.describe()` does, for schemas written with zod/mini: a copy of the schema
 * that carries the description (OpenAPI and AsyncAPI read it), the original left as it was. Not a
 * check (mini's `z.describe()` is one), so an object stays usable with omit, pick and extend.
 */
export const described = <T extends z.ZodMiniType>(schema: T, description: string): T => {
  const copy = schema.clone();
  z.globalRegistry.add(copy as z.ZodMiniType, { description });
  return copy;
};
