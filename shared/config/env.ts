/**
 * Reading the environment, for the config's parts (index.ts): each setting is a getter, read on
 * use, so tests can set the environment before first use.
 */

export const env = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

export const intFromEnv = (name: string, fallback: number): number => {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return parsed;
};

export const stage = (): string => env('CMS_STAGE') ?? 'aws';

/** The local stack (`npm start`), where behaviour differs from AWS. */
export const isLocal = (): boolean => stage() === 'local';

/** The local stack or the tests: where a missing secret has a stand-in instead of stopping the function. */
export const localOrTest = (): boolean => isLocal() || env('VITEST') !== undefined;
