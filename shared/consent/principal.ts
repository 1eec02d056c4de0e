import { sha256Hex } from '../crypto/hash';

/**
 * The principal's hash: SHA-256 hex of the identifier, trimmed, with emails lower-cased so that
 * the same person typed two ways is one principal. Tenants hashing on their side for
 * `status/:hash` or `identifierHash` must do the same.
 */
export const principalHash = (identifier: string): string => {
  const trimmed = identifier.trim();
  return sha256Hex(trimmed.includes('@') ? trimmed.toLowerCase() : trimmed);
};

/** Attribution when a widget sends no identifier: the client's IP, hashed like an identifier. */
export const ipAttribution = (ip: string): string => principalHash(`ip:${ip}`);
