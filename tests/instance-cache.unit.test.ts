import { describe, expect, it } from 'vitest';
import { instanceCache } from '../shared/instance-cache';

/** The one cache of what a warm instance remembers (shared/instance-cache.ts), without engines. */
describe('instanceCache.forget', () => {
  it('drops the entry, and a read that began before it is not remembered in its place', async () => {
    const cache = instanceCache<string>(10, () => 10_000);
    await cache.reload('tenant', async () => 'before');
    expect(cache.get('tenant')).toBe('before');

    // A read in flight while this instance changes the item: it answers its own request with
    // what it read, but must not put the old state back for the requests after the change.
    let finishRead!: (value: string) => void;
    const inFlight = cache.reload('tenant', () => new Promise<string>((resolve) => (finishRead = resolve)));
    cache.forget('tenant');
    finishRead('read before the change');
    expect(await inFlight).toBe('read before the change');
    expect(cache.get('tenant')).toBeUndefined();

    // Reads that begin after the change are remembered again.
    await cache.reload('tenant', async () => 'after');
    expect(cache.get('tenant')).toBe('after');
  });
});
