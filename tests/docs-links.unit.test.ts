import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link and image in README.md and docs/ resolves: the file exists, and a `#section`
 * names a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens).
 */
const repoRoot = resolve(__dirname, '..');

const markdownFiles = (): string[] => {
  const docs = join(repoRoot, 'docs');
  const under = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return under(path);
      return path.endsWith('.md') ? [path] : [];
    });
  return [join(repoRoot, 'README.md'), ...(existsSync(docs) ? under(docs) : [])];
};

/** GitHub's heading anchor: lower case, everything but letters, digits, spaces, hyphens and underscores dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (markdown: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = anchorOf(heading!);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
};

/** Link and image targets outside code: `[text](target)` and `![alt](target)`. */
const targetsOf = (markdown: string): string[] =>
  [...markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target!);

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('README and docs/', () => {
  it('link only to files and sections that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles()) {
      const text = readFileSync(file, 'utf8');
      for (const target of targetsOf(text).filter((candidate) => !isExternal(candidate))) {
        checked += 1;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const destination = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const where = `${relative(repoRoot, file)} → ${target}`;
        if (!existsSync(destination)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor && destination.endsWith('.md') && !anchorsOf(readFileSync(destination, 'utf8')).has(anchor)) broken.push(`${where}: no such section`);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it('catches a broken link (the check itself)', () => {
    expect(targetsOf('See [the API](docs/api.md#errors), ![a picture](docs/images/x.png) and [the web](https://example.com); `[not](a-link)`.')).toEqual([
      'docs/api.md#errors',
      'docs/images/x.png',
      'https://example.com',
    ]);
    expect(anchorOf('Consent records and proof')).toBe('consent-records-and-proof');
    expect(anchorOf('The `cms` CLI: tenants & keys')).toBe('the-cms-cli-tenants--keys');
    expect(anchorsOf('# A\n## A\n```\n# not\n```')).toEqual(new Set(['a', 'a-1']));
  });
});
