/**
 * Where a connection to a tenant-typed host may go, checked where the socket connects: a socket
 * lookup that resolves the name again at connect time (a name that resolved to a public address
 * at save time can resolve to 127.0.0.1 a minute later) and refuses unless every address is
 * allowed by the address policy, or the host is a local exception the caller names (as narrow as
 * it can be: the webhooks' local stack any loopback host; a JWKS issuer one host and port).
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress } from './address-policy';

/** Marks our refusal apart from DNS failures, so callers can say which it was. */
export const forbiddenCode = 'EFORBIDDENADDRESS';

/** URL hostnames keep IPv6 brackets ("[::1]"); sockets and DNS want them without. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** Whether a host the policy would refuse is a local exception the caller allows. */
export type LocalException = (host: string) => boolean;

/**
 * Resolves a host and fails unless every address is allowed. Every address, not just the first:
 * the socket may try any of them. IP literals are checked as they are, without DNS.
 */
export const resolveAllowed = async (host: string, exception: LocalException, family = 0): Promise<dns.LookupAddress[]> => {
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await dns.promises.lookup(host, { all: true, family });
  if (addresses.length === 0) throw Object.assign(new Error(`${host} resolves to no address`), { code: 'ENOTFOUND' });
  if (exception(host)) return addresses;
  const forbidden = addresses.find(({ address }) => isForbiddenAddress(address));
  if (forbidden) {
    throw Object.assign(new Error(`${host} resolves to forbidden address ${forbidden.address}`), { code: forbiddenCode });
  }
  return addresses;
};

/** Socket lookup that re-resolves at connect time and refuses forbidden addresses. */
export const guardedLookup =
  (exception: LocalException): LookupFunction =>
  (hostname, options, callback) => {
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : (options.family ?? 0);
    resolveAllowed(hostname, exception, family).then(
      (addresses) => {
        // Node asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily), else for one.
        if (options.all) return callback(null, addresses);
        const [first] = addresses;
        return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} resolves to no address`), '');
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

/** Node connects to IP literals without calling `lookup`: such a host is refused here unless excepted. */
export const literalRefused = (host: string, exception: LocalException): boolean => isIP(host) !== 0 && !exception(host) && isForbiddenAddress(host);
