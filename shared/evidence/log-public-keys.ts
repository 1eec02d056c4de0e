import type { JsonWebKey } from 'node:crypto';
import { join } from 'node:path';
import { secretConfig } from '../config';
import { localOrTest } from '../config/env';
import { jwks, localSigner, publishedJwks } from './signer';

/** The name the checkpoint key's kid is derived from (signers.ts signs under it; the deploy-time reader names it so too). */
export const logKeyName = 'consent-service-log';

/** The local stack's checkpoint key file, made on first use (signers.ts signs with it). */
export const localLogKeyFile = () => join(secretConfig.localKeyDir, 'log-signing.pem');

/**
 * The checkpoint key's public half, for opening checkpoint notes without any means of signing
 * one: given at deploy in AWS (LOG_PUBLIC_KEYS), the key file's locally. Outside the local stack
 * and the tests a function not given LOG_PUBLIC_KEYS is misdeployed: refused, rather than read
 * from a key file that is not the key.
 */
export const logPublicKeys = async (): Promise<{ keys: JsonWebKey[] }> => {
  const published = secretConfig.logPublicKeys;
  if (published !== undefined) return publishedJwks('LOG_PUBLIC_KEYS', published, ['ES256']);
  if (!localOrTest()) throw new Error('LOG_PUBLIC_KEYS is required outside the local stack');
  return jwks([await localSigner(localLogKeyFile(), logKeyName)]) as { keys: JsonWebKey[] };
};
