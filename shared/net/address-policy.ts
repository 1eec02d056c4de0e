/**
 * The one address policy for every connection the service makes to a URL a tenant typed
 * (webhook deliveries, the tracker scanner): only global unicast addresses may be reached.
 *
 * It is an allowlist, not a blocklist: ipaddr.js classifies the address against the IANA
 * special-purpose registries, and anything it does not call plain `unicast` is refused, so a
 * special range we never heard of is refused by default. IPv6 must also lie in 2000::/3, the
 * only block IANA allocates for global unicast (ipaddr.js calls unassigned space "unicast" too,
 * including the deprecated IPv4-compatible ::a.b.c.d form). An IPv4-mapped IPv6 address is
 * judged by the IPv4 address it carries.
 */
import ipaddr from 'ipaddr.js';
import { engineConfig } from '../config';

const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/** True only for a global unicast IP address. Anything that is not an IP address fails closed. */
export const isGlobalUnicast = (address: string): boolean => {
  // Lookups may return scoped link-local addresses (fe80::1%eth0); the zone never makes one global.
  const bare = address.split('%')[0] ?? '';
  if (!ipaddr.isValid(bare)) return false;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(globalUnicastV6);
};

/** True when the service must not connect to this address. */
export const isForbiddenAddress = (address: string): boolean => !isGlobalUnicast(address);

/**
 * Hosts the local stack may reach over plain http (a receiver or a fixture site on the
 * developer's machine). Only when the caller passes allowLocal, which is engineConfig.isLocal.
 */
export const localHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

const listening = new Map<number, number>();

/**
 * The local API server registers the port it listens on (infra/local/server.ts), so that no local
 * exception reaches it; the returned function takes it back when the server closes.
 */
export const registerStackPort = (port: number): (() => void) => {
  listening.set(port, (listening.get(port) ?? 0) + 1);
  return () => {
    const left = (listening.get(port) ?? 1) - 1;
    if (left > 0) listening.set(port, left);
    else listening.delete(port);
  };
};

/** The port of an endpoint on this machine, or undefined for one elsewhere (or none). */
const loopbackPortOf = (endpoint: string | undefined): number | undefined => {
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    if (!localHosts.has(url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase())) return undefined;
    return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    return undefined;
  }
};

/**
 * The local stack's own ports on loopback: the API and its pages (the ports the local server
 * listens on, and those of the portal and dashboard base URLs), DynamoDB Local, the SQS emulator,
 * the S3 archive, and the SES emulator with its mail inbox (each endpoint in the configuration).
 * A local exception covers a developer's receiver or fixture site on loopback, never these: none
 * answers a cross-origin read, but a scan or a webhook has no business with them either.
 */
export const stackPorts = (): ReadonlySet<number> =>
  new Set([
    ...listening.keys(),
    ...[engineConfig.dynamodbEndpoint, engineConfig.sqsEndpoint, engineConfig.sesEndpoint, engineConfig.s3Endpoint, engineConfig.portalBaseUrl, engineConfig.dashboardBaseUrl].flatMap((endpoint) => loopbackPortOf(endpoint) ?? []),
  ]);

export const isStackPort = (port: number): boolean => stackPorts().has(port);

