import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../shared/scanner/crawl';
import { openCookieDatabase } from '../shared/scanner/cookie-database';
import { buildFindings } from '../shared/scanner/report';
import { isViolation } from '../shared/scanner/run';
import { newTenant, useApi } from './support/api';
import { configureCookies, embedPage } from './support/widget';

/**
 * Pass 2 against this project's real widget (cms.js from the local server), on a loopback site
 * whose analytics tag waits for consent the widget's way: the scanner's "accept all" releases it,
 * so the tracker is found, correctly gated, and the scanner's decision never reaches the tenant.
 *
 * In AWS the scanner reaches the service's public hosts (CloudFront, API Gateway) as any visitor
 * does. Locally the API's port is the stack's own, which no local exception reaches, so the
 * service's public face is a forwarding server on a port of its own, in front of the real API.
 */
const { call, state } = useApi();
let site: Server;
let publicFace: Server;
let html = '';
let siteUrl = '';
let serviceUrl = '';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  site = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  siteUrl = `${await listen(site)}/`;
  publicFace = createServer((incoming, outgoing) => {
    const forwarded = request(`${state.baseUrl}${incoming.url ?? '/'}`, { method: incoming.method, headers: { ...incoming.headers, host: new URL(state.baseUrl).host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  serviceUrl = await listen(publicFace);
});
afterAll(async () => {
  for (const server of [site, publicFace]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('pass 2 with the real widget', () => {
  it("grants through the widget's banner: the gated analytics cookie is found after consent only, and no decision is recorded", async () => {
    const tenant = await newTenant(call);
    const apiKey = await tenant.apiKey();
    await configureCookies(call, tenant.token, {});
    const gated = `<script type="text/plain" data-category="ANALYTICS">document.cookie = '_ga=GA1.1.42.42; path=/'; localStorage.setItem('_hjid', 'x');</script>`;
    html = embedPage({ apiBaseUrl: serviceUrl, apiKey, tenantId: tenant.tenantId, attributes: { 'data-notice': 'off' }, body: gated });

    // The page loads cms.js from the service's origin, another loopback port: the local exception
    // reaches exactly the scan URLs' origins, so the service's is one of them (a page of it without cookies).
    const result = await crawl([siteUrl, `${serviceUrl}/api/v1/openapi.json`], { allowLocal: true, budget: { pageMs: 10_000, linksPerUrl: 0 } });
    const findings = buildFindings(result.observations, [], openCookieDatabase());

    const ga = findings.find((finding) => finding.kind === 'COOKIE' && finding.name === '_ga');
    expect(ga).toMatchObject({ category: 'ANALYTICS', setBeforeConsent: false });
    expect(findings.find((finding) => finding.name === '_hjid')).toMatchObject({ setBeforeConsent: false });
    // The widget's own consent cookie is necessary; nothing the page set before consent is a violation.
    expect(findings.filter(isViolation)).toEqual([]);
    // The scanner answered the widget's web-event itself: the tenant's analytics saw no decision.
    const analytics = await call('GET', '/api/v1/cmp/analytics', { token: tenant.token });
    expect(analytics.status).toBe(200);
    expect(analytics.body.data.totals.decisions).toBe(0);
  });
});
