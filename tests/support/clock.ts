import { afterEach } from 'vitest';
import { offsetClock, resetClock, setClock } from '../../shared/clock';
import { config } from '../../shared/config';

let offsetMs = 0;

/**
 * Moves the service's clock just past INSTANCE_CACHE_SECONDS, the bound on what a warm instance
 * remembers (API keys, the published-notice pointer, consent settings: shared/instance-cache.ts),
 * so the next request reads them again: what a change promises "within the bound".
 */
export const passInstanceCacheBound = (): void => {
  offsetMs += config.instanceCacheSeconds * 1000 + 1;
  setClock(offsetClock(offsetMs));
};

/** Puts the clock back after each test of the file. */
export const useClockReset = (): void => {
  afterEach(() => {
    offsetMs = 0;
    resetClock();
  });
};
