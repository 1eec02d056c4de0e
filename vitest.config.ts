import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/setup/engines.ts'],
    setupFiles: ['tests/setup/environment.ts'],
    pool: 'forks',
    // Two cores: more workers only contend for DynamoDB Local.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Two cores: scrypt logins, Chromium and DynamoDB Local share them, so a slow moment is not a failure.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './tests/setup/totals-reporter.ts'],
  },
});
