import { createPublicKey } from 'node:crypto';
import { getPublicKey, sign as kmsSign } from '../aws/kms';
import { ecdsaDerToRaw, keyIdOf, publicJwkOf, sha256, type Signer } from './signer';

/**
 * AWS KMS asymmetric keys (KeySpec ECC_NIST_P256) signing ES256, apart from the key files and
 * seeds of ./signer: only a module that imports this one bundles the KMS client, so a function
 * that only verifies (with public keys it was given at deploy, shared/auth/jwt.ts) or signs with
 * a seed (receipts) never loads it.
 */

/** KMS signs RAW messages only up to 4 KiB; longer ones are hashed here and sent as a digest. */
const kmsRawLimit = 4096;

/**
 * The public half of an AWS KMS signing key (ECC_NIST_P256), named as kmsSigner names it
 * (kms:GetPublicKey): what the deploy-time custom resource reads for the verifying functions.
 */
export const kmsPublicKey = async (keyArn: string, name: string): Promise<Pick<Signer, 'keyId' | 'alg' | 'publicJwk'>> => {
  const { PublicKey, KeySpec } = await getPublicKey(keyArn);
  if (!PublicKey || KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyArn} must be an ECC_NIST_P256 signing key, got ${KeySpec ?? 'none'}`);
  const publicKey = createPublicKey({ key: Buffer.from(PublicKey), format: 'der', type: 'spki' });
  const keyId = keyIdOf(name, publicKey.export({ format: 'der', type: 'spki' }));
  return { keyId, alg: 'ES256', publicJwk: publicJwkOf(publicKey, keyId, 'ES256') };
};

/**
 * A KMS key signing ES256: the private key never leaves KMS. Its public key is read once;
 * signatures come back DER-encoded and are returned as r||s.
 */
export const kmsSigner = async (keyArn: string, name: string): Promise<Signer> => {
  return {
    ...(await kmsPublicKey(keyArn, name)),
    sign: async (data) => {
      const digest = data.length > kmsRawLimit;
      const { Signature } = await kmsSign({ KeyId: keyArn, Message: digest ? sha256(data) : data, MessageType: digest ? 'DIGEST' : 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
      if (!Signature) throw new Error('KMS returned no signature');
      return ecdsaDerToRaw(Signature);
    },
  };
};
