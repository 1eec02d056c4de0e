import { createHash } from 'node:crypto';
import { randomToken, sha256Hex } from '../crypto/hash';
import type { ApiKeyKind } from './schemas';

export type { ApiKeyKind };

/**
 * Key string: `cms_<keyId without dashes>_<secret>` (publishable, the original format) or
 * `cms_sk_<keyId without dashes>_<secret>` (secret), so a secret key is visibly one wherever it
 * is pasted. The key id locates the key in one read; only the SHA-256 of the secret part is
 * stored for authentication (the secret has 256 bits, so no slow KDF is needed). The kind that
 * counts is the stored one; the prefix only has to agree with it.
 */
const pattern = /^cms_(sk_)?([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const prefixOf = (kind: ApiKeyKind) => (kind === 'secret' ? 'cms_sk_' : 'cms_');

export const newApiKeySecret = () => {
  const secret = randomToken(32);
  return { secret, secretHash: sha256Hex(secret) };
};

export const formatApiKey = (keyId: string, secret: string, kind: ApiKeyKind = 'publishable'): string => `${prefixOf(kind)}${keyId.replaceAll('-', '')}_${secret}`;

export const parseApiKey = (apiKey: string): { keyId: string; secret: string; kind: ApiKeyKind } | undefined => {
  const match = pattern.exec(apiKey);
  if (!match?.[2] || !match[3]) return undefined;
  const hex = match[2];
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { keyId, secret: match[3], kind: match[1] ? 'secret' : 'publishable' };
};

export const maskApiKey = (keyId: string, last4: string, kind: ApiKeyKind = 'publishable'): string =>
  `${prefixOf(kind)}${keyId.replaceAll('-', '')}_${'*'.repeat(39)}${last4}`;

/**
 * What checks a tenant server's identity signature (`identifierSignature`: hex HMAC-SHA256 of the
 * identifier hash, keyed with the secret key string as issued) without the key itself.
 *
 * HMAC (RFC 2104 §3) first replaces a key longer than the hash's block (64 bytes for SHA-256) by
 * its hash, and a secret key string is 83 characters, so HMAC(key string, m) equals
 * HMAC(SHA-256(key string), m): this 32-byte value verifies (and, as with any HMAC, could make)
 * signatures, but it is not the key. Authentication compares SHA-256 of the secret part alone,
 * and neither hash can be turned back into the key, so whoever reads the stored verifier cannot
 * call the API as the tenant. It is stored sealed with the secret box besides (settings-store.ts),
 * so a copy of the table alone cannot even forge a signature.
 */
export const identityVerifierOf = (apiKey: string): Buffer => {
  if (Buffer.byteLength(apiKey) <= 64) throw new Error('a secret key must be longer than the HMAC block for its verifier to work');
  return createHash('sha256').update(apiKey, 'utf8').digest();
};
