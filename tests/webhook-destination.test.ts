import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../shared/errors';
import { isForbiddenAddress } from '../shared/net/address-policy';
import { checkDestination, sendWebhook } from '../shared/webhooks/destination';

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback range'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, low end'],
    ['172.31.255.255', 'private 172.16/12, high end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'scoped IPv6 link-local'],
    ['febf::1', 'IPv6 link-local, top of fe80::/10'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12:3456::1', 'unique-local fd'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['100.64.0.1', 'CGNAT low end'],
    ['100.127.255.255', 'CGNAT high end'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '0/8'],
    ['::', 'IPv6 unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata, upper case'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:101', 'IPv4-mapped private, uncompressed'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible private, hex'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
    // Ranges the old hand-written blocklist missed; the allowlist refuses them without naming them.
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata'],
    ['2002:7f00:1::', '6to4 carrying loopback'],
    ['2001::1', 'Teredo'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.255', 'benchmarking, high end'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.1', 'documentation TEST-NET-2'],
    ['203.0.113.1', 'documentation TEST-NET-3'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['64:ff9b::808:808', 'NAT64 prefix: a translation, not a global host'],
    ['fec0::1', 'deprecated site-local, outside 2000::/3'],
    ['4000::1', 'unallocated IPv6, outside 2000::/3'],
    ['not-an-ip', 'not an address: fails closed'],
    ['', 'empty: fails closed'],
  ])('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1', // just past 172.16/12
    '100.128.0.1', // just past CGNAT
    '223.255.255.255', // just below multicast
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8', // mapped public
  ])('allows public %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

/** The `fields.url` reason of the ValidationError a check throws, or undefined when it passes. */
const refusal = async (url: string, allowLocal: boolean): Promise<string | undefined> => {
  try {
    await checkDestination(url, { allowLocal });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fields?.url;
  }
};

describe('checkDestination', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses http unless allowLocal and the host is this machine', async () => {
    expect(await refusal('http://127.0.0.1:8080/hook', false)).toBe('must use https');
    expect(await refusal('http://localhost/hook', false)).toBe('must use https');
    expect(await refusal('http://8.8.8.8/hook', true)).toBe('must use https');
    expect(await refusal('http://10.0.0.1/hook', true)).toBe('must use https');
    expect(await refusal('http://127.0.0.1:8080/hook', true)).toBeUndefined();
    expect(await refusal('http://localhost:8080/hook', true)).toBeUndefined();
    expect(await refusal('http://[::1]:8080/hook', true)).toBeUndefined();
  });

  it('refuses other schemes and unparsable URLs', async () => {
    expect(await refusal('ftp://8.8.8.8/hook', true)).toBe('must use https');
    expect(await refusal('file:///etc/passwd', true)).toBe('must use https');
    expect(await refusal('not a url', false)).toBe('must be a valid URL');
  });

  it('accepts https to a public address literal (no DNS, no traffic)', async () => {
    expect(await refusal('https://8.8.8.8/hook', false)).toBeUndefined();
    expect(await refusal('https://[2606:4700::1111]/hook', false)).toBeUndefined();
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://0x7f.1/hook', // odd IPv4 spelling, normalised by the URL parser to 127.0.0.1
    'https://2130706433/hook', // 127.0.0.1 as one number
    'https://[64:ff9b::a00:1]/hook',
  ])('refuses https to the forbidden literal %s', async (url) => {
    expect(await refusal(url, false)).toBe('must not point to a private, loopback or reserved address');
  });

  it('refuses userinfo', async () => {
    expect(await refusal('https://user:secret@8.8.8.8/hook', false)).toBe('must not contain a username or password');
    expect(await refusal('https://user@8.8.8.8/hook', false)).toBe('must not contain a username or password');
    expect(await refusal('http://user@127.0.0.1/hook', true)).toBe('must not contain a username or password');
  });

  it('refuses a hostname that resolves to loopback unless allowLocal', async () => {
    expect(await refusal('https://localhost/hook', false)).toBe(
      'must not point to a private, loopback or reserved address',
    );
    expect(await refusal('https://localhost/hook', true)).toBeUndefined();
  });

  it('refuses a name when any one of its addresses is forbidden', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '8.8.8.8', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ] as any);
    expect(await refusal('https://mixed.example/hook', false)).toBe(
      'must not point to a private, loopback or reserved address',
    );
    expect(lookup).toHaveBeenCalledWith('mixed.example', expect.objectContaining({ all: true }));
    lookup.mockResolvedValue([{ address: '8.8.8.8', family: 4 }] as any);
    expect(await refusal('https://public.example/hook', false)).toBeUndefined();
  });

  it('refuses a name that does not resolve', async () => {
    expect(await refusal('https://nonexistent.invalid/hook', false)).toBe('host does not resolve');
  });
});

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('sendWebhook', () => {
  const received: Received[] = [];
  let connections = 0;
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: `${base}/target` }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 1500);
      } else if (req.url === '/endless') {
        // A body that never ends: only the 64 KB reading cap lets the sender finish early.
        res.writeHead(200);
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const writer = setInterval(() => res.write(chunk), 2);
        res.on('close', () => clearInterval(writer));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      }
    });
  });
  server.on('connection', () => {
    connections += 1;
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    connections = 0;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const local = { timeoutMs: 2000, allowLocal: true };

  it('posts the exact body bytes with the JSON type and the given headers', async () => {
    const body = '{"b":1,  "a":"₹ नमस्ते",\n"z":[]}';
    const result = await sendWebhook(`${base}/hook`, body, { 'X-Signature': 'sha256=abc', 'X-Webhook-Id': 'wh_1' }, local);
    expect(result).toEqual({ statusCode: 200, error: null });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hook');
    expect(request?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(request?.headers['x-signature']).toBe('sha256=abc');
    expect(request?.headers['x-webhook-id']).toBe('wh_1');
  });

  it('keeps Content-Type application/json even if a caller header says otherwise', async () => {
    await sendWebhook(`${base}/hook`, '{}', { 'Content-Type': 'text/plain' }, local);
    expect(received[0]?.headers['content-type']).toBe('application/json');
  });

  it('returns a 3xx as its status and does not follow the redirect', async () => {
    const result = await sendWebhook(`${base}/redirect`, '{}', {}, local);
    expect(result).toEqual({ statusCode: 302, error: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((request) => request.url)).toEqual(['/redirect']);
  });

  it('stops reading an endless response body at the cap and reports the status', async () => {
    const started = Date.now();
    expect(await sendWebhook(`${base}/endless`, '{}', {}, { timeoutMs: 3000, allowLocal: true })).toEqual({
      statusCode: 200,
      error: null,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up after timeoutMs', async () => {
    const started = Date.now();
    const result = await sendWebhook(`${base}/slow`, '{}', {}, { timeoutMs: 300, allowLocal: true });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('reports a refused connection without throwing', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sendWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, local);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses at connect time a name that resolves to loopback, sending nothing', async () => {
    const { port } = server.address() as AddressInfo;
    const result = await sendWebhook(`http://localhost:${port}/hook`, '{}', {}, { timeoutMs: 2000, allowLocal: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/forbidden address 127\.0\.0\.1/);
    expect(connections).toBe(0);
    expect(received).toHaveLength(0);
  });

  it('refuses a forbidden IP literal, which Node connects to without any lookup', async () => {
    const result = await sendWebhook(`${base}/hook`, '{}', {}, { timeoutMs: 2000, allowLocal: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/forbidden/);
    expect(connections).toBe(0);
  });

  it('fails a name that passed the save-time check but rebinds to loopback before the send', async () => {
    const { port } = server.address() as AddressInfo;
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '8.8.8.8', family: 4 }] as any);
    await checkDestination(`https://rebind.example:${port}/hook`, { allowLocal: false });
    lookup.mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as any);
    const result = await sendWebhook(`http://rebind.example:${port}/hook`, '{}', {}, { timeoutMs: 2000, allowLocal: false });
    expect(result).toEqual({ statusCode: null, error: 'rebind.example resolves to forbidden address 127.0.0.1' });
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(connections).toBe(0);
  });
});
