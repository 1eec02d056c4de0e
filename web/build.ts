import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';

/**
 * The browser apps and how each is built. The same build feeds the local server (in memory) and
 * the CDK stack's asset bucket, so what a test loads is what a deploy ships.
 */
/** Only its own scripts, styles and API; never framed (a withdrawal page could be clickjacked). */
export const portalContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The DPO dashboard: its own scripts, styles and API only (no inline script or style), never
 * framed. `img-src data:` is not needed; the chart is inline SVG in the DOM. `frame-src 'self'`:
 * the cookie banner's live preview frames the widget's own preview page (/widget/preview), in a
 * sandbox without allow-same-origin.
 */
export const dashboardContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; font-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * The widget's demo page (/widget/demo): it loads only its own script and stylesheet, cms.js from
 * the same origin and the API there, so it gets the portal's policy, as strict as any page here.
 * The page carries it in a meta tag too (without frame-ancestors, which only a header can set),
 * for hosts that serve the file without the header.
 */
export const demoContentSecurityPolicy = portalContentSecurityPolicy;

export const webApps = {
  widget: {
    entry: 'src/main.ts',
    // The embed contract names this path: {widgetBase}/v1/cms.js.
    outFile: 'v1/cms.js',
    // A page URL that is not a file is a 404: the widget has no client-side routes.
    fallback: undefined,
    // cms.js runs on tenants' pages, under their policies; the preview page sets its own in a meta
    // tag (and is framed by the dashboard, so it must not refuse framing).
    headers: {},
    fileHeaders: {
      'demo.html': { 'Content-Security-Policy': demoContentSecurityPolicy, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' },
    },
    // The browsers the widget's DOM calls already need (replaceChildren: Chrome 86, Firefox 78,
    // Safari 14), so ES2020 syntax ships as written. esbuild lowers optional chaining below
    // Chrome 91 only for a V8 defect in an optional call with a spread argument before another
    // argument (crbug.com/42201552), a form tests/widget-size.test.ts checks the bundle never has.
    syntax: { target: ['es2020', 'chrome86', 'firefox78', 'safari14'], supported: { 'optional-chain': true } },
  },
  portal: {
    entry: 'src/main.ts',
    outFile: 'app.js',
    // /portal/<token> and /portal/t/<slug> are routes of one page.
    fallback: 'index.html',
    // Withdrawal links are secrets in the URL: never cached, never sent on as a referrer, never indexed.
    headers: {
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
      // The page's own meta tag says the same; frame-ancestors works only as a header.
      'Content-Security-Policy': portalContentSecurityPolicy,
      'X-Frame-Options': 'DENY',
    },
  },
  dashboard: {
    entry: 'src/main.tsx',
    // index.html is written by the build (it names the content-hashed entry and stylesheet).
    outFile: 'index.html',
    // /dashboard/<screen>/… are client routes of one page (paths without a file extension).
    fallback: 'index.html',
    // ES modules with code splitting: each screen is a chunk loaded on demand; every script and
    // stylesheet has a content-hashed name, only index.html keeps its name.
    split: true,
    headers: {
      'Referrer-Policy': 'same-origin',
      'X-Robots-Tag': 'noindex',
      'Content-Security-Policy': dashboardContentSecurityPolicy,
      'X-Frame-Options': 'DENY',
    },
  },
} as const satisfies Record<string, WebAppDefinition>;

export type WebApp = keyof typeof webApps;

export interface WebAppDefinition {
  entry: string;
  outFile: string;
  fallback: string | undefined;
  /** Headers of one file (its path below the app), beside `headers`, which every file of the app gets. */
  fileHeaders?: Record<string, Record<string, string>>;
  /** ESM with code splitting and content-hashed names; the build writes index.html from public/index.html. */
  split?: boolean;
  /** The browsers an unsplit app is built for, when not the default ones. */
  syntax?: Pick<BuildOptions, 'target' | 'supported'>;
  headers: Record<string, string>;
}

/** A built file name that carries its content hash (`main-AB12CD34.js`, `v1/cms.0123456789ab.js`). */
export const isContentHashed = (path: string): boolean => /[.-][A-Za-z0-9]{8,}\.(js|css)$/.test(path);

export interface WebFile {
  contents: Uint8Array;
  contentType: string;
}

const webRoot = fileURLToPath(new URL('.', import.meta.url));
export const appDirectory = (app: WebApp): string => join(webRoot, app);

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};
export const contentTypeOf = (path: string): string => contentTypes[extname(path)] ?? 'application/octet-stream';

const filesUnder = (directory: string): string[] => {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
};

/** The apps written so far (a folder under web/ with its entry). */
export const presentWebApps = (): WebApp[] =>
  (Object.keys(webApps) as WebApp[]).filter((app) => existsSync(join(appDirectory(app), webApps[app].entry)));

/**
 * Bundles one app (minified, for browsers of the last few years) and adds its `public/` files,
 * keyed by URL path below the app. Synchronous, so a CDK construct can call it while it builds.
 * `directory`: the app's sources elsewhere (the bench builds an earlier release's widget from git).
 */
export const buildWebApp = (app: WebApp, directory = appDirectory(app)): Map<string, WebFile> => {
  const definition: WebAppDefinition = webApps[app];
  if (definition.split) return buildSplitApp(app, directory);
  const result = buildSync({
    entryPoints: [join(directory, definition.entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2019', 'chrome80', 'firefox78', 'safari13'],
    ...definition.syntax,
    platform: 'browser',
    tsconfig: join(directory, 'tsconfig.json'),
    outfile: join(directory, 'dist', definition.outFile),
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files = new Map<string, WebFile>();
  for (const output of result.outputFiles) {
    const path = relative(join(directory, 'dist'), output.path).split('\\').join('/');
    files.set(path, { contents: output.contents, contentType: contentTypeOf(path) });
  }
  const publicDirectory = join(directory, 'public');
  for (const path of filesUnder(publicDirectory)) {
    const key = relative(publicDirectory, path).split('\\').join('/');
    files.set(key, { contents: readFileSync(path), contentType: contentTypeOf(key) });
  }
  return files;
};

/**
 * An app of ES modules: the entry and its stylesheet, and one chunk per dynamic import(), all
 * named by content hash under the app's path; index.html (from public/index.html, with
 * `<!--entry-->` replaced by the module script and stylesheet tags) is the only stable name.
 */
const buildSplitApp = (app: WebApp, directory: string): Map<string, WebFile> => {
  const outdir = join(directory, 'dist');
  const result = buildSync({
    entryPoints: [join(directory, webApps[app].entry)],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    target: ['es2020', 'chrome87', 'firefox78', 'safari14'],
    platform: 'browser',
    tsconfig: join(directory, 'tsconfig.json'),
    outdir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files = new Map<string, WebFile>();
  for (const output of result.outputFiles) {
    const path = relative(outdir, output.path).split('\\').join('/');
    files.set(path, { contents: output.contents, contentType: contentTypeOf(path) });
  }
  // Every chunk of a dynamic import() has an entryPoint too: the app's own is the one built from its entry file.
  const entryFile = webApps[app].entry;
  const entry = Object.entries(result.metafile.outputs).find(([path, output]) => path.endsWith('.js') && output.entryPoint?.split('\\').join('/').endsWith(`/${entryFile}`));
  if (!entry) throw new Error(`${app}: esbuild produced no entry`);
  const entryPath = relative(outdir, join(process.cwd(), entry[0])).split('\\').join('/');
  const cssPath = entry[1].cssBundle ? relative(outdir, join(process.cwd(), entry[1].cssBundle)).split('\\').join('/') : undefined;
  const publicDirectory = join(directory, 'public');
  for (const path of filesUnder(publicDirectory)) {
    const key = relative(publicDirectory, path).split('\\').join('/');
    files.set(key, { contents: readFileSync(path), contentType: contentTypeOf(key) });
  }
  const template = files.get('index.html');
  if (!template) throw new Error(`${app}: public/index.html is missing`);
  const tags = [
    ...(cssPath ? [`<link rel="stylesheet" href="/${app}/${cssPath}">`] : []),
    `<script type="module" src="/${app}/${entryPath}"></script>`,
  ].join('\n    ');
  const html = Buffer.from(template.contents).toString('utf8').replace('<!--entry-->', tags);
  files.set('index.html', { contents: new TextEncoder().encode(html), contentType: contentTypeOf('index.html') });
  return files;
};

/** The file names index.html loads before anything else: the initial load of a split app. */
export const initialFilesOf = (files: Map<string, WebFile>): string[] => {
  const html = Buffer.from(files.get('index.html')?.contents ?? new Uint8Array()).toString('utf8');
  const named = [...html.matchAll(/(?:src|href)="\/[^/]+\/([^"]+)"/g)].map((match) => match[1]!);
  // An entry's static imports (shared chunks) load with it; esbuild writes them as `from"./chunks/…"`.
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !files.has(path)) return;
    seen.add(path);
    if (!path.endsWith('.js')) return;
    const source = Buffer.from(files.get(path)!.contents).toString('utf8');
    const base = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
    for (const match of source.matchAll(/(?:import|export)\s*(?:[\w${}*,\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(new URL(match[1]!, `http://x/${base}`).pathname.slice(1));
    }
  };
  named.forEach(visit);
  return [...seen];
};

export interface DeployedWebFile extends WebFile {
  /** Object key in the asset bucket: `<app>/<path>`. */
  key: string;
  /**
   * `immutable` for content-hashed names, `short` for names that stay the same across builds,
   * `none` for a page that names hashed files (the dashboard's index.html: a release is live at once).
   */
  caching: 'immutable' | 'short' | 'none';
}

const hashedName = (path: string, contents: Uint8Array): string => {
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 12);
  const dot = path.lastIndexOf('.');
  return `${path.slice(0, dot)}.${hash}${path.slice(dot)}`;
};

/**
 * What the asset bucket holds for one app: every file under its stable name (cached briefly, so a
 * release reaches every page within minutes) and the entry bundle once more under a content-hashed
 * name (cached for good), for integrators who pin a version with Subresource Integrity.
 */
export const deployableFiles = (app: WebApp): DeployedWebFile[] =>
  [...buildWebApp(app)].flatMap(([path, file]): DeployedWebFile[] => {
    if ((webApps[app] as WebAppDefinition).split) {
      return [{ ...file, key: `${app}/${path}`, caching: path === webApps[app].outFile ? 'none' : isContentHashed(path) ? 'immutable' : 'short' }];
    }
    const stable: DeployedWebFile = { ...file, key: `${app}/${path}`, caching: 'short' };
    if (path !== webApps[app].outFile) return [stable];
    return [stable, { ...file, key: `${app}/${hashedName(path, file.contents)}`, caching: 'immutable' }];
  });
