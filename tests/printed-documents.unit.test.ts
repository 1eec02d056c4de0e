import { describe, expect, it } from 'vitest';
import { pageEventOf, pageRequestOf, type PrintedRoute } from '../shared/documents/printed';
import { routeKeyOf } from '../shared/http/route';
import { routeList, routes } from '../shared/http/routes';
import { documentRoutes } from '../shared/http/routes/documents';

const meta = (headers: Record<string, string>) => ({ requestId: 'req-1', ip: '192.0.2.7', userAgent: 'agent', origin: undefined, referer: undefined, headers });

describe('the printed documents (group documents, …/pdf)', () => {
  it("each prints a route of the table at its own path less /pdf, by the same method and auth, and that route answers format=html", () => {
    const printed = routeList.filter((route) => route.prints);
    expect(printed.map((route) => route.operationId).sort()).toEqual(Object.keys(documentRoutes).sort());
    expect(routeList.filter((route) => route.group === 'documents').length).toBe(printed.length);
    for (const route of printed) {
      const source = routeList.find((candidate) => candidate.operationId === route.prints!.operationId);
      expect(source, route.operationId).toBeDefined();
      expect(route.group).toBe('documents');
      expect(`${source!.path}/pdf`).toBe(route.path);
      expect(source!.method).toBe(route.method);
      expect(source!.group).toBe(route.prints!.group);
      expect(source!.auth).toEqual(route.auth);
      const query = source!.request?.query as { '~standard': { validate: (value: unknown) => { issues?: unknown } } } | undefined;
      expect(query?.['~standard'].validate({ format: 'html' }).issues, route.operationId).toBeUndefined();
      expect(query?.['~standard'].validate({ format: 'pdf' }).issues, route.operationId).toBeDefined();
    }
  });

  it('asks for the page with the validated input, format=html, and only the headers the page reads', () => {
    const breachId = '0b6f3c1e-9d4a-4f57-8a57-1c2d3e4f5a6b';
    const page = pageRequestOf(documentRoutes.printBoardReport as PrintedRoute, {
      params: { breachId },
      query: { stage: 'INTIMATION' },
      meta: meta({ authorization: 'Bearer t', cookie: 'c=1', 'x-api-key': 'k', 'user-agent': 'agent', host: 'api' }),
    });
    expect(page).toMatchObject({ group: 'breaches', method: 'GET', path: '/api/v1/breaches/:breachId/board-report', rawPath: `/api/v1/breaches/${breachId}/board-report`, query: { stage: 'INTIMATION', format: 'html' }, body: undefined });
    expect(page.headers).toEqual({ authorization: 'Bearer t', 'user-agent': 'agent' });
    const event = pageEventOf(page);
    expect(event.routeKey).toBe(routeKeyOf(routes.getBoardReport));
    expect(event).toMatchObject({ version: '2.0', rawPath: page.rawPath, rawQueryString: 'stage=INTIMATION&format=html', pathParameters: { breachId }, queryStringParameters: { stage: 'INTIMATION', format: 'html' }, isBase64Encoded: false });
    expect(event.requestContext).toMatchObject({ requestId: 'req-1', routeKey: event.routeKey, http: { method: 'GET', path: page.rawPath, sourceIp: '192.0.2.7' } });
  });

  it("sends the pack's validated body on, and a parameter percent-encoded", () => {
    const pack = pageRequestOf(documentRoutes.printEvidencePack as PrintedRoute, { body: { principalHash: 'ab'.repeat(32) }, meta: meta({ authorization: 'Bearer t', 'content-type': 'application/json' }) });
    expect(pack).toMatchObject({ group: 'evidence', method: 'POST', rawPath: '/api/v1/consent/evidence-packs', query: { format: 'html' }, body: JSON.stringify({ principalHash: 'ab'.repeat(32) }) });
    expect(pageEventOf(pack)).toMatchObject({ routeKey: routeKeyOf(routes.createEvidencePack), body: pack.body });
    expect(pageRequestOf(documentRoutes.printRightsRequestSummary as PrintedRoute, { params: { requestId: 'a/b' }, meta: meta({}) }).rawPath).toBe('/api/v1/rights/requests/a%2Fb/summary');
  });
});
