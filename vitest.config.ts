import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/setup/sequencer';

/**
 * Three projects. `unit`: pure functions and request builders, no engine started (`npx vitest run
 * --project unit` answers in seconds). `connected`: everything that talks to DynamoDB Local, the
 * SQS and SES emulators or Chromium, which the global setup starts once per run. `smoke`: the
 * deployed bundles against those engines (`npm run smoke`), which `npm test` leaves to CI's own step.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Two cores, three workers: many files wait (on a minute's retention period, a sweep, a
    // browser), and two workers left about a third of the CPU idle in CI (24m40s user over 19 min).
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
    // Two cores: scrypt logins, Chromium and DynamoDB Local share them, so a slow moment is not a failure.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './tests/setup/totals-reporter.ts'],
    // Longest files first, so the two workers finish together (tests/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/**/*.unit.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'connected',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/**/*.unit.test.ts', 'tests/smoke/**'],
          globalSetup: ['tests/setup/engines.ts'],
          setupFiles: ['tests/setup/environment.ts'],
        },
      },
      {
        extends: true,
        // The deployed bundles run against the same engines (`npm run smoke`; .ci/run runs it apart).
        test: { name: 'smoke', include: ['tests/smoke/**/*.test.ts'], globalSetup: ['tests/setup/engines.ts'], setupFiles: ['tests/setup/environment.ts'] },
      },
    ],
  },
});
