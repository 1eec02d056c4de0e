import { buildWebApp, isContentHashed, presentWebApps, webApps, type WebApp, type WebAppDefinition, type WebFile } from '../../web/build';

/**
 * The local stand-in for CloudFront in front of the asset bucket: /widget/*, /portal/* and
 * /dashboard/* are the browser apps, built once per process in memory by the same build the stack
 * deploys.
 */
const builds = new Map<WebApp, Map<string, WebFile>>();
const filesOf = (app: WebApp): Map<string, WebFile> => {
  let files = builds.get(app);
  if (!files) {
    files = buildWebApp(app);
    builds.set(app, files);
  }
  return files;
};

export interface StaticResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

const appOf = (pathname: string): { app: WebApp; path: string } | undefined => {
  for (const app of Object.keys(webApps) as WebApp[]) {
    const prefix = `/${app}/`;
    if (pathname === `/${app}`) return { app, path: '' };
    if (pathname.startsWith(prefix)) return { app, path: pathname.slice(prefix.length) };
  }
  return undefined;
};

/** The app file for a GET path, undefined when the path belongs to no app (the API's, then). */
export const staticResponse = async (pathname: string): Promise<StaticResponse | undefined> => {
  const located = appOf(pathname);
  // An app not written yet is no app: its paths fall through to the API's 404.
  if (!located || !presentWebApps().includes(located.app)) return undefined;
  const definition: WebAppDefinition = webApps[located.app];
  const files = filesOf(located.app);
  // `/widget/demo` is `demo.html`: printed URLs stay extension-free. A split app's client routes
  // have no extension; a missing script or stylesheet is a 404, never the page.
  const fallback = definition.fallback && !(definition.split && /\.[a-z0-9]+$/i.test(located.path)) ? definition.fallback : undefined;
  const directPath = [located.path, `${located.path}.html`].find((path) => files.has(path));
  const path = directPath ?? fallback;
  const file = path === undefined ? undefined : files.get(path);
  if (!file || path === undefined) return undefined;
  const direct = directPath !== undefined;
  // Locally every restart may change the build; CloudFront's caching lives in the stack. A split
  // app's hashed files never change under their name; its page is never stored, so a new build
  // is live at once.
  const caching = definition.split ? (direct && isContentHashed(located.path) ? 'public, max-age=31536000, immutable' : 'no-store') : 'no-cache';
  return {
    statusCode: 200,
    headers: {
      'Content-Type': file.contentType,
      'Cache-Control': caching,
      'X-Content-Type-Options': 'nosniff',
      ...definition.headers,
      ...definition.fileHeaders?.[path],
    },
    body: file.contents,
  };
};
