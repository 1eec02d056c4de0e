import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Stack traces of a deployed bundle, mapped to the TypeScript sources on demand. Node's own
 * `--enable-source-maps` reads and parses a bundle's whole source map when the bundle is loaded:
 * on every cold start, before the first request, whether or not anything ever fails (measured: a
 * tenth or more of a function's cold path, and more the larger the bundle; docs/bundles.md). The
 * functions run without it, and the first stack trace a warm instance formats reads the map
 * beside the bundle (`index.mjs.map`, which every bundle carries) with Node's own decoder
 * (`module.SourceMap`) and rewrites each frame of the bundle to its source file, line and column.
 * Frames elsewhere (Node's own, or a file without a map) are left as V8 wrote them.
 *
 * It takes over only where nothing else maps stack traces: in a bundle (this module's own file is
 * then the bundle, a `.mjs`), and only when Node's source maps are off. From source (tsx, vitest,
 * the local stack) it does nothing, so their own mapping is untouched.
 */
const maps = new Map<string, SourceMap | undefined>();

const mapOf = (file: string): SourceMap | undefined => {
  if (!maps.has(file)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      // No map beside this file (Node's own modules, a file shipped without one): its frames stay as they are.
      map = undefined;
    }
    maps.set(file, map);
  }
  return maps.get(file);
};

/** One frame as V8 writes it (`at fn (file:line:column)`, `at async fn (…)`, `at new C (…)`), its place mapped to the source. */
const frameOf = (site: NodeJS.CallSite): string => {
  const written = `    at ${String(site)}`;
  const url = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!url?.endsWith('.mjs') || line === null || column === null) return written;
  const map = mapOf(url.startsWith('file:') ? fileURLToPath(url) : url);
  const entry = map?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return written;
  // The map names sources relative to itself; written as paths, as Node's own source maps write them. (The
  // function names stay the bundle's, minified: the place is what finds the line.)
  const source = fileURLToPath(new URL(entry.originalSource, url.startsWith('file:') ? url : pathToFileURL(url)));
  return written.replace(`${url}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
};

const errorLine = (error: Error): string => {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
};

/** Installs the mapping when this runs from a bundle without Node's own source maps; returns whether it did. */
export const mapBundleStackTraces = (moduleUrl: string = import.meta.url): boolean => {
  if (!moduleUrl.endsWith('.mjs') || process.sourceMapsEnabled) return false;
  Error.prepareStackTrace = (error, sites) => {
    try {
      return `${errorLine(error)}\n${sites.map(frameOf).join('\n')}`;
    } catch {
      // Formatting a stack must never throw: the frames unmapped, as V8 would write them.
      return `${errorLine(error)}\n${sites.map((site) => `    at ${String(site)}`).join('\n')}`;
    }
  };
  return true;
};
