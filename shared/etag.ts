import { sha256Hex } from './crypto/hash';

/** A strong validator of a serialised body: the same bytes always give the same ETag. */
export const strongEtag = (body: string): string => `"${sha256Hex(body).slice(0, 32)}"`;

/** If-None-Match matches when it lists this ETag (weak or strong form) or is `*`. */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
};
