import type { JsonWebKey } from 'node:crypto';
import { join } from 'node:path';
import { secretConfig } from '../config';
import { localOrTest } from '../config/env';
import { jwks, localSigner, type PublicJwk } from './signer';

/** The name the checkpoint key's kid is derived from (signers.ts signs under it; the deploy-time reader names it so too). */
export const logKeyName = 'consent-service-log';

/** The local stack's checkpoint key file, made on first use (signers.ts signs with it). */
export const localLogKeyFile = () => join(secretConfig.localKeyDir, 'log-signing.pem');

/**
 * The key set of LOG_PUBLIC_KEYS. It is the stack's own output, not a caller's input, so a
 * malformed one is the deployment's fault: thrown as it is (a 500), never taken as "no key", which
 * would report every checkpoint as forged.
 */
const publishedKeys = (published: string): { keys: PublicJwk[] } => {
  const set = JSON.parse(published) as { keys?: unknown };
  const keys = Array.isArray(set?.keys) ? (set.keys as PublicJwk[]) : [];
  if (keys.length === 0 || keys.some((key) => typeof key?.kid !== 'string' || key.alg !== 'ES256')) {
    throw new Error('LOG_PUBLIC_KEYS must be a JWKS whose every key has a kid and alg ES256');
  }
  return { keys };
};

/**
 * The checkpoint key's public half, for opening checkpoint notes without any means of signing
 * one: given at deploy in AWS (LOG_PUBLIC_KEYS), the key file's locally. Outside the local stack
 * and the tests a function not given LOG_PUBLIC_KEYS is misdeployed: refused, rather than read
 * from a key file that is not the key.
 */
export const logPublicKeys = async (): Promise<{ keys: JsonWebKey[] }> => {
  const published = secretConfig.logPublicKeys;
  if (published !== undefined) return publishedKeys(published) as { keys: JsonWebKey[] };
  if (!localOrTest()) throw new Error('LOG_PUBLIC_KEYS is required outside the local stack');
  return jwks([await localSigner(localLogKeyFile(), logKeyName)]) as { keys: JsonWebKey[] };
};
