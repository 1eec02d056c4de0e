import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Fixture sites for the scanner, on loopback only: the site under test on 127.0.0.1, a
 * "third-party" vendor on localhost (another site to the scanner; reachable only when a test names
 * its origin among the scan URLs, as the local exception covers exactly those origins), a canary
 * on 127.0.0.2 and another on another port of 127.0.0.1, each counting every request it gets (the
 * address policy must keep both counts at zero).
 */
export interface FixtureSites {
  site: string;
  vendor: string;
  canary: string;
  canaryHits: () => number;
  /** A canary on 127.0.0.1 at a port of its own: loopback, but not a scan URL's origin. */
  loopbackCanary: string;
  loopbackCanaryHits: () => number;
  /** Requests for the pages /popups tries to open. */
  popupHits: () => number;
  /** Consent decisions the site's stand-in service received (the scanner's must never arrive). */
  webEvents: () => number;
}

const page = (body: string, head = '') => `<!doctype html><html><head><title>Fixture</title>${head}</head><body>${body}</body></html>`;

/** A stand-in for this project's widget (web/widget): window.cms plus the cookie banner in a shadow root; trackers only after accept. */
const widgetScript = `
  window.cms = { getConsent: () => ({ cookies: null }), showNotice() {}, showCookiePreferences() {} };
  const host = document.createElement('div');
  host.setAttribute('data-cms', '');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<section role="dialog" aria-labelledby="cms-c-t"><h2 id="cms-c-t">Cookies</h2><div class="r"><button class="p">Accept all</button><button>Reject all</button></div></section>';
  root.querySelector('button.p').addEventListener('click', async () => {
    // As the widget does: the decision goes to the service first.
    const reply = await fetch('/api/v1/cmp/web-event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (reply.status !== 201) return;
    document.cookie = 'cms_consent=all; path=/';
    document.cookie = '_ga=GA1.1.123.456; path=/';
    localStorage.setItem('_hjid', 'x');
  });
  document.body.append(host);
`;

const serve = (host: string, handler: http.RequestListener) =>
  new Promise<{ server: http.Server; origin: string }>((resolve) => {
    const server = http.createServer(handler);
    server.listen(0, host, () => resolve({ server, origin: `http://${host}:${(server.address() as AddressInfo).port}` }));
  });

export const useFixtureSites = () => {
  const servers: http.Server[] = [];
  const state = { site: '', vendor: '', canary: '', loopbackCanary: '', hits: 0, loopbackHits: 0, popupHits: 0, webEvents: 0 };
  const hanging = new Set<http.ServerResponse>();
  beforeAll(async () => {
    const canary = await serve('127.0.0.2', (_request, response) => {
      state.hits += 1;
      response.end('canary');
    });
    const loopbackCanary = await serve('127.0.0.1', (_request, response) => {
      state.loopbackHits += 1;
      response.end('canary');
    });
    const otherPort = loopbackCanary.origin;
    // Served as localhost: another site than 127.0.0.1 to the scanner. localhost is a secure context, so a Secure SameSite=None cookie may be set over http.
    let vendorOrigin = '';
    const vendor = await serve('127.0.0.1', (request, response) => {
      response.setHeader('set-cookie', 'vendor_uid=abc; Path=/; SameSite=None; Secure');
      const script = request.url?.endsWith('.js');
      response.setHeader('content-type', script ? 'text/javascript' : 'image/gif');
      response.end(script ? `new Image().src = '${vendorOrigin}/pixel.gif';` : '');
    });
    vendorOrigin = vendor.origin.replace('127.0.0.1', 'localhost');
    const canaryOrigin = canary.origin;
    const site = await serve('127.0.0.1', (request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      response.setHeader('content-type', 'text/html');
      switch (path) {
        case '/':
          response.setHeader('set-cookie', ['session_http=s1; Path=/; HttpOnly', 'zz_mystery_pref=1; Path=/']);
          response.end(
            page(
              `<a href="/about">About</a> <a href="/contact#team">Contact</a> <a href="/about">Again</a> <a href="https://elsewhere.invalid/">Elsewhere</a> <a href="mailto:x@y.example">Mail</a>`,
              `<script>document.cookie = '_ga=GA1.1.1.2; path=/'; document.cookie = '_fbp=fb.1.2.3; path=/'; localStorage.setItem('cart_state', '1'); sessionStorage.setItem('tab_token', '2');</script>`,
            ),
          );
          return;
        case '/api/v1/cmp/web-event':
          state.webEvents += 1;
          response.writeHead(201, { 'content-type': 'application/json' }).end('{"data":{"recorded":true}}');
          return;
        case '/about':
        case '/contact':
          response.end(page(`<h1>${path}</h1>`));
          return;
        case '/third-party':
          response.end(page('<p>vendor</p>', `<script src="${vendorOrigin}/tag.js"></script>`));
          return;
        case '/service-worker':
          // The only third-party request comes from a service worker, a target of its own that the page's request events miss.
          response.end(page('<p>sw</p>', `<script>navigator.serviceWorker.register('/sw.js');</script>`));
          return;
        case '/sw.js':
          response.setHeader('content-type', 'text/javascript');
          response.end(`self.addEventListener('install', (event) => event.waitUntil(fetch('${vendorOrigin}/from-sw.gif').catch(() => {})));`);
          return;
        case '/widget':
          response.end(page('<p>shop</p>', `<script>document.addEventListener('DOMContentLoaded', () => {${widgetScript}});</script>`));
          return;
        case '/hang':
          // Sends the start of a page and a cookie, then never finishes.
          response.setHeader('set-cookie', 'hang_started=1; Path=/');
          response.write(page('<p>loading forever', `<script>document.cookie = '_gid=GA1.2.3.4; path=/';</script>`).replace('</p></body></html>', ''));
          hanging.add(response);
          return;
        case '/leak':
          response.end(
            page(
              `<img src="${canaryOrigin}/img.gif"><iframe src="${canaryOrigin}/frame"></iframe><a href="/redirect">go</a>`,
              `<script src="${canaryOrigin}/s.js"></script><script>fetch('${canaryOrigin}/fetch').catch(() => {}); new Worker(URL.createObjectURL(new Blob(["fetch('${canaryOrigin}/worker').catch(() => {})"])));</script>`,
            ),
          );
          return;
        case '/redirect':
          response.writeHead(302, { location: `${canaryOrigin}/redirected` }).end();
          return;
        case '/other-port': {
          // Another port on the scan target's own loopback address, by address and by name (the
          // local S3 emulator once sat there), through every way a page can ask.
          const targets = [otherPort, otherPort.replace('127.0.0.1', 'localhost')];
          response.end(
            page(
              targets.map((origin) => `<img src="${origin}/img.gif"><iframe src="${origin}/frame"></iframe>`).join('') + '<a href="/to-other-port">go</a>',
              targets.map((origin) => `<script src="${origin}/s.js"></script><script>fetch('${origin}/fetch', { method: 'DELETE' }).catch(() => {});</script>`).join(''),
            ),
          );
          return;
        }
        case '/to-other-port':
          response.writeHead(302, { location: `${otherPort}/redirected` }).end();
          return;
        case '/popups':
          // window.open and target=_blank, 200 times: every one would be a page of its own.
          response.setHeader('set-cookie', 'popups_page=1; Path=/');
          response.end(
            page(
              '<a id="blank" href="/popup-target?link" target="_blank">new window</a>',
              `<script>for (let i = 0; i < 200; i += 1) window.open('/popup-target?' + i, '_blank'); document.addEventListener('DOMContentLoaded', () => document.getElementById('blank').click());</script>`,
            ),
          );
          return;
        case '/popup-target':
          state.popupHits += 1;
          response.end(page('<p>popup</p>', `<script>document.cookie = 'popup_cookie=1; path=/';</script>`));
          return;
        case '/busy':
          // Sets a cookie, then never gives its thread back.
          response.setHeader('set-cookie', 'busy_started=1; Path=/');
          response.end(page('<p>busy</p>', '<script>for (;;) {}</script>'));
          return;
        case '/memory':
          // Allocates until the heap cap stops it.
          response.end(page('<p>memory</p>', '<script>const hog = []; for (;;) hog.push(new Array(1e6).fill(Math.random()));</script>'));
          return;
        default:
          response.writeHead(404).end();
      }
    });
    servers.push(canary.server, loopbackCanary.server, vendor.server, site.server);
    Object.assign(state, { site: site.origin, vendor: vendorOrigin, canary: canaryOrigin, loopbackCanary: otherPort });
  });
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  return {
    sites: (): FixtureSites => ({
      site: state.site,
      vendor: state.vendor,
      canary: state.canary,
      canaryHits: () => state.hits,
      loopbackCanary: state.loopbackCanary,
      loopbackCanaryHits: () => state.loopbackHits,
      popupHits: () => state.popupHits,
      webEvents: () => state.webEvents,
    }),
  };
};
