import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports point down: no module of shared/ imports a module that imports it back, directly or
 * through others (type-only imports count: a loop of types is still two modules that cannot be
 * understood apart). Registries that compose domains (the stream's consumers, the translator's
 * implementations) live above what they compose.
 */
const root = resolve(__dirname, '..', 'shared');

const modulesUnder = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return modulesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)]
    .map(([, specifier]) => resolve(dirname(file), specifier!))
    .map((target) => [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate)) ?? target)
    .filter((target) => target.startsWith(root));

/** Tarjan's strongly connected components with more than one module (or a module importing itself). */
const cyclesOf = (graph: Map<string, string[]>): string[][] => {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.map((file) => relative(root, file)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
};

describe('imports of shared/', () => {
  it('form no loop', () => {
    const graph = new Map(modulesUnder(root).map((file) => [file, importsOf(file)]));
    expect(graph.size).toBeGreaterThan(100);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('read the config by its parts, never the whole `config` (a bundle then carries only the parts its code reads)', () => {
    const wholeConfig = /import\s+\{[^}]*(?<!type\s)\bconfig\b[^}]*\}\s+from\s+['"][./]+config['"]/;
    expect(wholeConfig.test("import { limitConfig, type RateLimitRule } from '../config';")).toBe(false);
    expect(wholeConfig.test("import { config, type RateLimitRule } from '../config';")).toBe(true);
    const readers = modulesUnder(root).filter((file) => !file.startsWith(join(root, 'config')) && wholeConfig.test(readFileSync(file, 'utf8')));
    expect(readers.map((file) => relative(root, file))).toEqual([]);
  });

  it('finds a loop when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph).map((cycle) => cycle.length)).toEqual([3]);
  });
});
