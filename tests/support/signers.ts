import { createHash, generateKeyPairSync, sign as signWith } from 'node:crypto';
import { ecdsaDerToRaw, type Signer } from '../../shared/evidence/signer';

/** An ES256 signer like kmsSigner: node:crypto signs DER, as KMS does, and it is converted to r||s. */
export const es256Signer = (name: string): Signer => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = `${name}-${createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest().subarray(0, 8).toString('hex')}`;
  return {
    keyId,
    alg: 'ES256',
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid: keyId, alg: 'ES256', use: 'sig' },
    sign: async (data) => ecdsaDerToRaw(signWith('sha256', data, { key: privateKey, dsaEncoding: 'der' })),
  };
};
