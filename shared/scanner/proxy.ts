/**
 * The scanner's network guard: an in-process HTTP proxy every Chromium request goes through
 * (--proxy-server, with the implicit loopback bypass removed). It resolves each host itself,
 * checks every address with the service's one address policy and connects to the checked address,
 * so subresources, redirects, workers and service workers of a tenant's page can never reach
 * loopback, private, link-local, metadata or reserved addresses, and a name cannot rebind between
 * the check and the connection. https and wss arrive as CONNECT tunnels, plain http as
 * absolute-URI requests; anything refused gets a 403 and is counted.
 */
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { isForbiddenAddress, isStackPort, localHosts } from '../net/address-policy';

export interface ProxyPolicy {
  /**
   * The local stack's exception, as narrow as what it is for: `host:port` of the loopback origins
   * the run was asked to scan (crawl.ts localTargetsOf), nothing else on loopback. Another port of
   * the same address stays refused, and the stack's own ports (the API, the engines, the mail
   * inbox) always are, even listed as a scan URL.
   */
  localTargets: ReadonlySet<string>;
}

export interface FilteringProxy {
  port: number;
  /** host:port of every refused connection, in order. */
  refused: string[];
  /** Host of every request or tunnel asked for, allowed or not, in order: what workers and service workers ask for too. */
  requested: string[];
  close: () => Promise<void>;
}

const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** `host:port` as localTargets holds it: the host bare (no IPv6 brackets), lower-case. */
export const targetKey = (host: string, port: number): string => `${bareHost(host).toLowerCase()}:${port}`;

/** The address to connect to, or null when the policy refuses every address the host has. */
const allowedAddress = async (host: string, port: number, policy: ProxyPolicy): Promise<string | null> => {
  const bare = bareHost(host);
  const addresses = net.isIP(bare) ? [bare] : (await dns.promises.lookup(bare, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) return null;
  // Checked here too, where the socket connects: the stack's own ports are never a local target.
  const localTarget = localHosts.has(bare.toLowerCase()) && policy.localTargets.has(targetKey(bare, port)) && !isStackPort(port);
  // Every address, not just the one used: a name with one good and one forbidden address is refused.
  if (!localTarget && addresses.some(isForbiddenAddress)) return null;
  // IPv4 first: Lambda has no IPv6 egress, and `localhost` may list ::1 where a server listens on 127.0.0.1.
  return addresses.find((address) => net.isIPv4(address)) ?? addresses[0]!;
};

const splitHostPort = (authority: string, defaultPort: number): { host: string; port: number } => {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  return { host: match?.[1] ?? '', port: Number(match?.[2] ?? defaultPort) };
};

export const startFilteringProxy = async (policy: ProxyPolicy): Promise<FilteringProxy> => {
  const refused: string[] = [];
  const requested: string[] = [];
  // Everything open, so close() ends it all: a tenant's server that never finishes a response must
  // not keep a socket alive in a reused Lambda container.
  const sockets = new Set<net.Socket>();
  const upstreams = new Set<http.ClientRequest>();

  const server = http.createServer((request, response) => {
    // Plain http: the request line carries the absolute URL.
    let target: URL;
    try {
      target = new URL(request.url ?? '');
      if (target.protocol !== 'http:') throw new Error('only http is proxied without CONNECT');
    } catch {
      response.writeHead(400).end();
      return;
    }
    const port = Number(target.port || 80);
    requested.push(bareHost(target.hostname));
    void allowedAddress(target.hostname, port, policy).then((address) => {
      if (address === null) {
        refused.push(`${target.hostname}:${port}`);
        response.writeHead(403, { 'content-type': 'text/plain' }).end('refused by the scanner address policy');
        return;
      }
      const headers = { ...request.headers };
      delete headers['proxy-connection'];
      const upstream = http.request(
        { host: bareHost(address), port, method: request.method, path: `${target.pathname}${target.search}`, headers, agent: false, setHost: false },
        (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        },
      );
      upstreams.add(upstream);
      upstream.on('close', () => upstreams.delete(upstream));
      upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()));
      // Chromium gave up on the request (page budget, navigation): so does the proxy.
      response.on('close', () => upstream.destroy());
      request.pipe(upstream);
    });
  });

  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const { host, port } = splitHostPort(request.url ?? '', 443);
    requested.push(bareHost(host));
    void allowedAddress(host, port, policy).then((address) => {
      if (address === null) {
        refused.push(`${host}:${port}`);
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = net.connect({ host: address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    });
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    refused,
    requested,
    close: async () => {
      for (const upstream of upstreams) upstream.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
