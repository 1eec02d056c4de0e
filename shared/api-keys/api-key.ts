import { randomToken, sha256Hex } from '../crypto/hash';

/**
 * Key string: `cms_<keyId without dashes>_<secret>`. The key id locates the key in one read;
 * only the SHA-256 of the secret is stored (the secret has 256 bits, so no slow KDF is needed).
 */
const pattern = /^cms_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export const newApiKeySecret = () => {
  const secret = randomToken(32);
  return { secret, secretHash: sha256Hex(secret) };
};

export const formatApiKey = (keyId: string, secret: string): string => `cms_${keyId.replaceAll('-', '')}_${secret}`;

export const parseApiKey = (apiKey: string): { keyId: string; secret: string } | undefined => {
  const match = pattern.exec(apiKey);
  if (!match?.[1] || !match[2]) return undefined;
  const hex = match[1];
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { keyId, secret: match[2] };
};

export const maskApiKey = (keyId: string, last4: string): string => `cms_${keyId.replaceAll('-', '')}_${'*'.repeat(39)}${last4}`;
