import { AppError } from '../errors';

/** Development hosts are always allowed, per the spec. */
const alwaysAllowed = new Set(['localhost', '127.0.0.1', '[::1]']);

const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/**
 * The one origin check for browser-facing API-key endpoints: Origin, falling back to Referer,
 * must name a host registered under the key. A key with no domains is not enforced yet.
 */
export const checkOrigin = (
  allowedDomains: readonly string[],
  headers: { origin?: string | undefined; referer?: string | undefined },
): void => {
  if (allowedDomains.length === 0) return;
  const source = headers.origin ?? headers.referer;
  if (!source) throw new AppError('ORIGIN_MISSING', 'Neither Origin nor Referer was sent');
  const hostname = hostnameOf(source);
  if (hostname && (alwaysAllowed.has(hostname) || allowedDomains.includes(hostname))) return;
  throw new AppError('ORIGIN_NOT_ALLOWED', `Origin ${hostname ?? source} is not registered for this API key`);
};
