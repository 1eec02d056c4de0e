import { join } from 'node:path';
import { secretString } from '../aws/secrets-manager';
import { secretConfig } from '../config';
import { kmsSigner } from './kms-signer';
import { localLogKeyFile, logKeyName } from './log-public-keys';
import { jwks, localSigner, seedSigner, type Signer } from './signer';

/**
 * The service's two keys. Checkpoints are signed by an AWS KMS asymmetric key (a few signatures
 * per tenant per minute; the private key never leaves KMS). Receipts are signed once per consent,
 * where a KMS call each would cost more than the rest of the consent together, so their Ed25519
 * key is derived from a Secrets Manager secret read once per warm Lambda. Locally both are key
 * files under `localKeyDir`, created on first use.
 */
let checkpointKey: Promise<Signer> | undefined;
let receiptKey: Promise<Signer> | undefined;

export const checkpointSigner = (): Promise<Signer> =>
  (checkpointKey ??= secretConfig.logSigningKeyArn
    ? kmsSigner(secretConfig.logSigningKeyArn, logKeyName)
    : localSigner(localLogKeyFile(), logKeyName));

const secretValue = async (arn: string): Promise<string> => {
  const secret = await secretString(arn);
  if (!secret) throw new Error('the receipt key secret is empty');
  return secret;
};

export const receiptSigner = (): Promise<Signer> =>
  (receiptKey ??= secretConfig.receiptKeySecretArn
    ? secretValue(secretConfig.receiptKeySecretArn).then((secret) => seedSigner(secret, 'consent-service-receipts'))
    : localSigner(join(secretConfig.localKeyDir, 'receipt-signing.pem'), 'consent-service-receipts'));

/** The public halves, as `GET /consent/log/keys` serves them. */
export const verificationKeys = async () => jwks([await checkpointSigner(), await receiptSigner()]);

/** The checkpoint key's public half alone: what the signing side opens archived notes with (it has no business with the receipt key). */
export const checkpointKeys = async () => jwks([await checkpointSigner()]);
