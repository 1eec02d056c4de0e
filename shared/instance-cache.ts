import { clock } from './clock';

/**
 * State a warm Lambda instance keeps between requests to save a read, each kind with its own
 * bound on how stale it may be and on how many entries it holds (`INSTANCE_CACHE_SECONDS` in
 * docs/configuration.md; the webhook fan-out's hand-over). An entry expires `ttlMs()` after the
 * read that produced it began, by the injectable clock, so tests move time instead of sleeping;
 * the oldest entry goes once the cache is full. A ttl of 0 turns the cache off.
 */
export interface InstanceCache<V> {
  /** The remembered value, or undefined once it expired (or never was). */
  get(key: string): V | undefined;
  /** The remembered value, else `load()`'s, remembered unless `keep` says not to. */
  remember(key: string, load: () => Promise<V>, keep?: (value: V) => boolean): Promise<V>;
  /** `load()`'s value, whatever is remembered, remembered in its place unless `keep` says not to. */
  reload(key: string, load: () => Promise<V>, keep?: (value: V) => boolean): Promise<V>;
  /**
   * Drops what is remembered of `key`, for the instance that has just changed it: its next request
   * reads it again. A read that began before and ends after is not remembered either, so it cannot
   * put back what the change replaced.
   */
  forget(key: string): void;
  readonly size: number;
}

export const instanceCache = <V>(maxEntries: number, ttlMs: () => number): InstanceCache<V> => {
  const entries = new Map<string, { value: V; until: number }>();
  // Bumped by every forget: a reload that began before one keeps its value to itself.
  let forgets = 0;
  const get = (key: string): V | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.until > clock.now().getTime()) return entry.value;
    entries.delete(key);
    return undefined;
  };
  return {
    get,
    async remember(key, load, keep) {
      return get(key) ?? this.reload(key, load, keep);
    },
    async reload(key, load, keep = () => true) {
      const readAt = clock.now().getTime();
      const forgetsBefore = forgets;
      const value = await load();
      const ttl = ttlMs();
      if (forgets !== forgetsBefore) return value;
      entries.delete(key);
      if (ttl > 0 && keep(value)) {
        // Map keeps insertion order: the first key is the oldest entry.
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, until: readAt + ttl });
      }
      return value;
    },
    forget(key) {
      forgets += 1;
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
};
