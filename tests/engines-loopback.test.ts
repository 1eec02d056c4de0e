import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

/**
 * Every local engine listens on the loopback address only. Read from the kernel's own table of
 * listening sockets (/proc/net/tcp and tcp6), not from what the code asked for.
 */
interface Listener {
  address: string;
  port: number;
}

const listeners = (): Listener[] =>
  ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // State 0A is LISTEN.
      .filter((columns) => columns[3] === '0A')
      .map((columns) => {
        const [hexAddress = '', hexPort = '0'] = (columns[1] ?? '').split(':');
        return { address: decodeAddress(hexAddress), port: parseInt(hexPort, 16) };
      }),
  );

/** /proc/net writes addresses as host-order 32-bit words in hex. */
const decodeAddress = (hex: string): string => {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((byte) => parseInt(byte, 16)));
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16));
  const v6 = groups.join(':');
  // ::ffff:a.b.c.d, an IPv4 address on a dual-stack socket.
  return v6.startsWith('0:0:0:0:0:ffff:') ? `::ffff:${bytes.slice(12).join('.')}` : v6;
};

const isLoopback = (address: string) => /^127\./.test(address) || /^::ffff:127\./.test(address) || address === '0:0:0:0:0:0:0:1';

describe('local engines', () => {
  it('listen on the loopback address only', () => {
    const engines = inject('engines');
    const table = listeners();
    for (const endpoint of [engines.dynamodbEndpoint, engines.sqsEndpoint, engines.sesEndpoint, engines.s3Endpoint]) {
      const port = Number(new URL(endpoint).port);
      const sockets = table.filter((listener) => listener.port === port);
      expect(sockets.length, endpoint).toBeGreaterThan(0);
      for (const socket of sockets) expect(isLoopback(socket.address), `${endpoint} listens on ${socket.address}`).toBe(true);
    }
  });
});
