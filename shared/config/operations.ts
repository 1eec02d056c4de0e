import { env, intFromEnv } from './env';

/** What only the local stack and the infrastructure read, never a function: how the stack runs, and when operators are told. */
export const operationConfig = {
  /**
   * What the local stack runs (infra/local/start.ts): each function from its source, or `bundles`,
   * the very bundles a deploy ships, built with the CDK stack's esbuild options.
   */
  get localFunctions(): 'source' | 'bundles' {
    const value = env('CMS_FUNCTIONS') ?? 'source';
    if (value !== 'source' && value !== 'bundles') throw new Error(`CMS_FUNCTIONS must be source or bundles, got "${value}"`);
    return value;
  },
  get trustForwardedFor(): boolean {
    return env('CMS_TRUST_FORWARDED_FOR') === '1';
  },
  /**
   * When operators are told (infra/alarms.ts in AWS; the local workers log a warning at the same
   * points): the stream's iterator age, the checkpoint lag (seconds the oldest evidence has waited
   * for a signed checkpoint), messages in a dead-letter queue, and tenants with parked log entries.
   */
  get alarmThresholds() {
    return {
      streamIteratorAgeSeconds: intFromEnv('ALARM_STREAM_ITERATOR_AGE_SECONDS', 300),
      checkpointLagSeconds: intFromEnv('ALARM_CHECKPOINT_LAG_SECONDS', 300),
      deadLetterMessages: Math.max(1, intFromEnv('ALARM_DEAD_LETTER_MESSAGES', 1)),
      parkedTenants: Math.max(1, intFromEnv('ALARM_PARKED_TENANTS', 1)),
      /** How often the local workers look (AWS alarms evaluate every minute or five). */
      localCheckSeconds: Math.max(1, intFromEnv('LOCAL_HEALTH_CHECK_SECONDS', 30)),
    };
  },
};
