#!/usr/bin/env node
// Rewrites tests/setup/durations.json (the order test files start in: tests/setup/sequencer.ts)
// from the durations vitest kept of its last run here. Files that run did not include keep
// their old figure. Take it after a whole `npm test` on a quiet machine.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cacheDir = join('node_modules', '.vite', 'vitest');
const target = join('tests', 'setup', 'durations.json');
const durations = JSON.parse(readFileSync(target, 'utf8'));
for (const dir of readdirSync(cacheDir)) {
  const { results } = JSON.parse(readFileSync(join(cacheDir, dir, 'results.json'), 'utf8'));
  for (const [key, { duration }] of results) {
    const path = key.slice(key.indexOf(':') + 1);
    if (typeof duration === 'number' && duration > 0) durations[path] = Math.round(duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort((a, b) => b[1] - a[1]));
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files in ${target}`);
