import { AppError, ForbiddenError } from '../errors';

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

/**
 * What a key's kind allows on a route. A secret key is the tenant's server speaking: a browser
 * never holds one, so one arriving with an Origin header (which every browser sends with a
 * cross-origin or POST request, and no page can remove) has leaked into a page and is refused
 * like an origin outside the allowlist. Routes that take the key in the URL refuse it outright.
 * A publishable key goes through the domain allowlist where the route asks for it.
 */
export const checkKeyUse = (
  key: { kind: 'publishable' | 'secret'; allowedDomains: readonly string[] },
  route: { checkOrigin: boolean; secretKey: 'accepted' | 'refused' },
  headers: { origin?: string | undefined; referer?: string | undefined },
): void => {
  if (key.kind === 'publishable') {
    if (route.checkOrigin) checkOrigin(key.allowedDomains, headers);
    return;
  }
  if (route.secretKey === 'refused') throw new ForbiddenError('A secret key may not be sent here (this route takes the key in the URL, which is logged): use a publishable key');
  if (headers.origin !== undefined) {
    throw new AppError('ORIGIN_NOT_ALLOWED', 'A secret key is for your servers only and is refused from a browser (the request carries an Origin header); pages use a publishable key');
  }
};
