import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/**
 * The browser apps and how each is built. The same build feeds the local server (in memory) and
 * the CDK stack's asset bucket, so what a test loads is what a deploy ships.
 */
/** Only its own scripts, styles and API; never framed (a withdrawal page could be clickjacked). */
export const portalContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const webApps = {
  widget: {
    entry: 'src/main.ts',
    // The embed contract names this path: {widgetBase}/v1/cms.js.
    outFile: 'v1/cms.js',
    // A page URL that is not a file is a 404: the widget has no client-side routes.
    fallback: undefined,
    headers: {},
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
} as const satisfies Record<string, WebAppDefinition>;

export type WebApp = keyof typeof webApps;

interface WebAppDefinition {
  entry: string;
  outFile: string;
  fallback: string | undefined;
  headers: Record<string, string>;
}

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
 */
export const buildWebApp = (app: WebApp): Map<string, WebFile> => {
  const definition = webApps[app];
  const directory = appDirectory(app);
  const result = buildSync({
    entryPoints: [join(directory, definition.entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2019', 'chrome80', 'firefox78', 'safari13'],
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

export interface DeployedWebFile extends WebFile {
  /** Object key in the asset bucket: `<app>/<path>`. */
  key: string;
  /** `immutable` for content-hashed names, `short` for names that stay the same across builds. */
  caching: 'immutable' | 'short';
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
  [...buildWebApp(app)].flatMap(([path, file]) => {
    const stable: DeployedWebFile = { ...file, key: `${app}/${path}`, caching: 'short' };
    if (path !== webApps[app].outFile) return [stable];
    return [stable, { ...file, key: `${app}/${hashedName(path, file.contents)}`, caching: 'immutable' }];
  });
