import { afterEach } from 'vitest';
import { offsetClock, resetClock, setClock } from '../../shared/clock';
import { config } from '../../shared/config';
import { edgeCachePolicies } from '../../shared/http/edge-cache';

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

/**
 * Moves the service's clock (and so the local edge's, infra/local/edge.ts) just past the widget
 * bootstrap's bound: what a publish, a configuration change or a revocation promises to reach a
 * page within.
 */
export const passEdgeBound = (): void => {
  offsetMs += edgeCachePolicies.widgetBootstrap.maxAgeSeconds * 1000 + 1;
  setClock(offsetClock(offsetMs));
};

/** Puts the clock back after each test of the file. */
export const useClockReset = (): void => {
  afterEach(() => {
    offsetMs = 0;
    resetClock();
  });
};
