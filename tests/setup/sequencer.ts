import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in. Two workers take files from one queue, so a long file started
 * last is the run's tail: longest first (seconds each took in a CI run, tests/setup/durations.json;
 * `npm run test:durations` rewrites it from the last local run). The stream reader's file goes
 * before all: each of its readers starts at the stream's trim horizon and reads through everything
 * the suite has written so far (most of its time when it ran late). Files not listed (new ones) run
 * first, as vitest itself runs unknown files first.
 */
const durations: Record<string, number> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8'));
const first = ['tests/stream-reader.test.ts'];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification): number => {
      const path = relative(root, file.moduleId);
      if (first.includes(path)) return Number.POSITIVE_INFINITY;
      return durations[path] ?? Number.MAX_SAFE_INTEGER;
    };
    return [...files].sort((a, b) => rank(b) - rank(a));
  }
}
