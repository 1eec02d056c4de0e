import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, so ids sort by creation
 * time and a DynamoDB range of them reads in creation order.
 */
export const newTimeOrderedId = (at: Date = new Date()): string => {
  const bytes = randomBytes(16);
  const ms = BigInt(at.getTime());
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The leading `xxxxxxxx-xxxx` of every UUIDv7 made in millisecond `at`: ids of a time range lie between two such prefixes. */
export const timeOrderedIdPrefix = (at: Date): string => {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};
