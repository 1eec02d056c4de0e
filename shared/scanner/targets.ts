/**
 * Which URLs the scanner may be pointed at. This save-time check is only the first line: names
 * are not resolved here (a name can resolve elsewhere a minute later), so the filtering proxy
 * (proxy.ts) checks every connection's actual address with the same address policy.
 */
import { isIP } from 'node:net';
import { isForbiddenAddress, isStackPort, localHosts } from '../net/address-policy';

const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** Why `url` may not be scanned, or null when it may. allowLocal (the local stack) admits http to this machine. */
export const scanUrlProblem = (url: string, allowLocal: boolean): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  const host = bareHost(parsed.hostname);
  const local = allowLocal && localHosts.has(host);
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain a username or password';
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:')) return 'must be a public https URL';
  if (local && isStackPort(Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)))) {
    return "must not point to the local stack's own services (the API, its database, queue and storage engines, the mail inbox): scan a site of your own";
  }
  if (local) return null;
  if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isForbiddenAddress(host))) {
    return 'must not point to a private, loopback or reserved address';
  }
  return null;
};
