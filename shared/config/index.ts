import { deliveryConfig } from './delivery';
import { documentConfig } from './documents';
import { engineConfig } from './engines';
import { evidenceConfig } from './evidence';
import { limitConfig } from './limits';
import { operationConfig } from './operations';
import { secretConfig } from './secrets';

/**
 * The one place that reads the environment. Every tunable has a named default here, and
 * docs/configuration.md lists the same names. Each setting is a getter, read on use, so tests can
 * set the environment before first use.
 *
 * It comes in parts by responsibility, each its own module, so that a function's bundle carries
 * only the parts its code reads: shared/ imports the part it needs (`engineConfig.tableName`).
 * `config` holds every part's settings on one object, for the local stack, the infrastructure,
 * the bench and the tests; a bundle that never reads it carries none of it.
 */
export { deliveryConfig, documentConfig, engineConfig, evidenceConfig, limitConfig, operationConfig, secretConfig };
export type { RateLimitRule } from './limits';

type Parts = typeof deliveryConfig & typeof documentConfig & typeof engineConfig & typeof evidenceConfig & typeof limitConfig & typeof operationConfig & typeof secretConfig;

/** The parts' getters on one object, copied as they are (never read here); no two parts may name the same setting. */
const together = (...parts: object[]): Parts => {
  const descriptors: PropertyDescriptorMap = {};
  for (const part of parts) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(part))) {
      if (name in descriptors) throw new Error(`two parts of the config name ${name}`);
      descriptors[name] = descriptor;
    }
  }
  return Object.defineProperties({}, descriptors) as Parts;
};

export const config = /* @__PURE__ */ together(engineConfig, secretConfig, limitConfig, evidenceConfig, documentConfig, deliveryConfig, operationConfig);

export type Config = typeof config;
