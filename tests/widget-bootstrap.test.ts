import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { fixedClock, setClock } from '../shared/clock';
import { edgeCachePolicies } from '../shared/http/edge-cache';
import type { HandlerSource } from '../infra/local/server';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { publishedNotice } from './support/consent';
import { createNotice, publish } from './support/notices';
import { configureCookies } from './support/widget';
import { reviewWords } from './support/words';

/**
 * GET /widget/bootstrap through the local edge (infra/local/edge.ts), which keys its copies as the
 * stack's CloudFront cache policy does and keeps time by the injectable clock: what is cached,
 * under which key, for how long, and what never is.
 */
const originEvents: APIGatewayProxyEventV2[] = [];
const origin = { failing: false };
// The real group handlers, watched: every request the edge lets through to the origin is kept, and the origin can be made to fail.
const watchedHandlers = (): HandlerSource => (group) =>
  import(`../functions/${group}/handler.ts`).then(({ handler }: { handler: Awaited<ReturnType<HandlerSource>> }) => async (event, context) => {
    if (event.routeKey === 'GET /api/v1/widget/bootstrap') {
      originEvents.push(event);
      if (origin.failing) return { statusCode: 502, headers: { 'Content-Type': 'application/json' }, body: '{"message":"Internal Server Error"}' };
    }
    return handler(event, context);
  });

const { call, state } = useApi({ handlers: watchedHandlers });
useClockReset();

const bound = edgeCachePolicies.widgetBootstrap.maxAgeSeconds;
let now = 0;
/** Stops the service's clock (and so the edge's): only `wait` moves it, whatever the machine's pace. */
const stopClock = () => {
  now = Date.now();
  setClock(fixedClock(new Date(now)));
};
const wait = (seconds: number) => {
  now += seconds * 1000;
  setClock(fixedClock(new Date(now)));
};

const bootstrap = (apiKey: string, language = 'EN', headers: Record<string, string> = {}, extraQuery = '') =>
  call('GET', `/api/v1/widget/bootstrap?apiKey=${encodeURIComponent(apiKey)}&language=${language}${extraQuery}`, { headers: { 'accept-encoding': 'identity', ...headers } });

/** A tenant with a published notice, cookie banner in English and Hindi, and a publishable key. */
const site = async () => {
  const tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  await configureCookies(call, tenant.token, { languages: ['en', 'hi'] });
  return { tenant, notice, apiKey: await tenant.apiKey() };
};

describe('widget bootstrap at the edge', () => {
  it('answers notice, cookie banner and words in one body the edge shares for the bound, revalidated by ETag', async () => {
    stopClock();
    const { tenant, notice, apiKey } = await site();
    const first = await bootstrap(apiKey);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('Miss from local-edge');
    expect(first.headers.get('cache-control')).toBe(`public, max-age=${bound}, must-revalidate`);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(first.headers.get('vary') ?? '').not.toMatch(/cookie|origin/i);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const { data } = first.body;
    expect(data.version).toBe(etag.slice(1, -1));
    // The notice is the published snapshot the widget always read: public-notice's, its words moved to `words`.
    const publicNotice = (await call('GET', `/api/v1/consent/public-notice?apiKey=${apiKey}`)).body.data;
    const { labels, ...snapshot } = publicNotice;
    expect(data.notice).toEqual(snapshot);
    expect(data.notice.id).toBe(notice.noticeId);
    expect(data.cmp).toMatchObject({ languages: ['en', 'hi'], trackers: [], revision: expect.any(Number) });
    expect(data.cmp.labelSets).toBeUndefined();
    expect(data.words).toEqual({ EN: expect.objectContaining({ acceptAll: labels.EN.acceptAll, title: 'We value your privacy', managePreferences: 'Manage preferences' }) });

    const again = await bootstrap(apiKey);
    expect(again.headers.get('x-cache')).toBe('Hit from local-edge');
    expect(again.body).toEqual(first.body);
    const revalidated = await bootstrap(apiKey, 'EN', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBeUndefined();
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(originEvents.filter((event) => event.queryStringParameters?.apiKey === apiKey)).toHaveLength(1);

    // Hindi: the words Hindi shows under HI, the English of the rest under EN, the notice with its Hindi only.
    const hindi = (await bootstrap(apiKey, 'HI')).body.data;
    expect(Object.keys(hindi.words).sort()).toEqual(['EN', 'HI']);
    expect(hindi.words.HI.acceptAll).not.toBe('Accept all');
    for (const key of Object.keys(hindi.words.EN)) expect(hindi.words.HI[key]).toBeUndefined();
    expect(Object.keys(hindi.notice.translations)).toEqual([]);
    expect(tenant.tenantId).toBeTruthy();
  });

  it('keys its copies by key and language only: two tenants and two languages never mix, and nothing of the visitor reaches the key, the origin or the body', async () => {
    const first = await site();
    const second = await site();
    await publish(call, second.tenant.token, await createNotice(call, second.tenant.token, [second.notice.required], { title: 'Second shop notice' }));
    const visitors = [
      { cookie: 'session=visitor-one-secret', authorization: 'Bearer visitor-one-token', 'x-forwarded-for': '198.18.7.1', 'user-agent': 'VisitorOneBrowser/1', origin: 'https://one.example' },
      { cookie: 'session=visitor-two-secret', authorization: 'Bearer visitor-two-token', 'x-forwarded-for': '198.18.7.2', 'user-agent': 'VisitorTwoBrowser/2', origin: 'https://two.example' },
    ];
    const before = state.edge.stats.originRequests;
    const seen = new Map<string, unknown>();
    for (const visitor of visitors) {
      for (const tenant of [first, second]) {
        for (const language of ['EN', 'HI']) {
          const answer = await bootstrap(tenant.apiKey, language, visitor, '&visitor=someone&utm_source=mail');
          expect(answer.status).toBe(200);
          const label = `${tenant.tenant.tenantId} ${language}`;
          // The second visitor gets the very copy the first one caused.
          if (seen.has(label)) expect([answer.headers.get('x-cache'), answer.body]).toEqual(['Hit from local-edge', seen.get(label)]);
          seen.set(label, answer.body);
          expect(answer.body.data.notice.title).toBe(tenant === first ? 'Privacy notice' : 'Second shop notice');
          expect(Object.keys(answer.body.data.words).sort()).toEqual(language === 'EN' ? ['EN'] : ['EN', 'HI']);
        }
      }
    }
    expect(state.edge.stats.originRequests - before).toBe(4);
    // What the origin got: the key and the language, nothing of the visitor.
    const received = originEvents.slice(-4);
    for (const event of received) {
      expect(Object.keys(event.queryStringParameters ?? {}).sort()).toEqual(['apiKey', 'language']);
      expect(Object.keys(event.headers).sort()).toEqual(['host', 'user-agent']);
      expect(event.requestContext.http.sourceIp).toBe('127.0.0.1');
    }
    // What the edge holds: keys of path, key, language and encoding; bodies without a trace of either visitor.
    const held = [...state.edge.copies()].filter(([key]) => key.includes(first.apiKey) || key.includes(second.apiKey));
    expect(held.map(([key]) => JSON.parse(key)).sort()).toEqual(
      [first, second].flatMap((tenant) => ['EN', 'HI'].map((language) => ['/api/v1/widget/bootstrap', [tenant.apiKey], [language], 'identity'])).sort(),
    );
    for (const [, copy] of held) {
      for (const trace of ['visitor-one', 'visitor-two', '198.18.7', 'VisitorOne', 'VisitorTwo', 'one.example', 'two.example', 'someone', 'utm_source']) {
        expect(copy.text + JSON.stringify(copy.headers)).not.toContain(trace);
      }
      expect(Object.keys(copy.headers).map((name) => name.toLowerCase())).not.toContain('set-cookie');
    }
  });

  it('takes a publish, a cookie configuration change and a change of words to pages within the bound, and no sooner than the copy expires', async () => {
    stopClock();
    const { tenant, notice, apiKey } = await site();
    const before = (await bootstrap(apiKey, 'HI')).body.data;
    await publish(call, tenant.token, await createNotice(call, tenant.token, [notice.required, notice.optional], { title: 'Privacy notice, second edition' }));
    await configureCookies(call, tenant.token, { languages: ['en', 'hi'], reconsentDays: 90 });
    await reviewWords(call, tenant.token, 'HI', { acceptAll: 'सभी स्वीकार करें (समीक्षित)' });
    wait(bound - 1);
    const late = await bootstrap(apiKey, 'HI');
    expect([late.headers.get('x-cache'), late.body.data]).toEqual(['Hit from local-edge', before]);
    expect(Number(late.headers.get('age'))).toBe(bound - 1);
    wait(1);
    const after = await bootstrap(apiKey, 'HI');
    expect(after.headers.get('x-cache')).toBe('Miss from local-edge');
    expect(after.body.data.notice.title).toBe('Privacy notice, second edition');
    expect(after.body.data.cmp.reconsentDays).toBe(90);
    expect(after.body.data.words.HI.acceptAll).toBe('सभी स्वीकार करें (समीक्षित)');
    expect(after.body.data.version).not.toBe(before.version);
  });

  it('refuses a revoked key within the bound, keeps its 401 no longer than the bound, and renews an unchanged copy with a 304 from the origin', async () => {
    stopClock();
    const { tenant, apiKey } = await site();
    expect((await bootstrap(apiKey)).status).toBe(200);
    wait(bound);
    // Unchanged: the origin answers the edge's If-None-Match with a 304, and the copy is renewed.
    const renewed = await bootstrap(apiKey);
    expect([renewed.status, renewed.headers.get('x-cache')]).toEqual([200, 'RefreshHit from local-edge']);
    expect(originEvents.at(-1)!.headers['if-none-match']).toBe(renewed.headers.get('etag'));

    const keyId = (await call('GET', '/api/v1/api-keys', { token: tenant.token })).body.data[0].keyId;
    wait(bound - 2);
    // The function has just read the key for another route, and would remember it for a while.
    expect((await call('GET', `/api/v1/consent/public-notice?apiKey=${apiKey}`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/api-keys/${keyId}`, { token: tenant.token })).status).toBe(200);
    wait(1);
    expect((await bootstrap(apiKey)).status).toBe(200);
    wait(1);
    const refused = await bootstrap(apiKey);
    expect([refused.status, refused.body.error.code, refused.headers.get('x-cache')]).toEqual([401, 'UNAUTHORIZED', 'Miss from local-edge']);
    expect(refused.headers.get('cache-control')).toBe(`public, max-age=${bound}, must-revalidate`);
    const requests = state.edge.stats.originRequests;
    expect((await bootstrap(apiKey)).headers.get('x-cache')).toBe('Hit from local-edge');
    wait(bound);
    expect((await bootstrap(apiKey)).status).toBe(401);
    expect(state.edge.stats.originRequests - requests).toBe(1);
  });

  it('serves a stale copy while its origin fails, as CloudFront does, with an Age that shows it is past the bound', async () => {
    stopClock();
    const { apiKey } = await site();
    expect((await bootstrap(apiKey)).status).toBe(200);
    origin.failing = true;
    try {
      wait(bound + 30);
      const stale = await bootstrap(apiKey);
      expect([stale.status, stale.headers.get('x-cache'), Number(stale.headers.get('age'))]).toEqual([200, 'StaleHit from local-edge', bound + 30]);
    } finally {
      origin.failing = false;
    }
    wait(1);
    const renewed = await bootstrap(apiKey);
    expect([renewed.headers.get('x-cache'), renewed.headers.get('age')]).toEqual(['RefreshHit from local-edge', '0']);
  });

  it('compresses a copy per encoding, and refuses a secret key or a language that is no code, briefly shared', async () => {
    const { tenant, apiKey } = await site();
    // fetch decompresses what it is sent.
    const gzipped = await fetch(`${state.baseUrl}/api/v1/widget/bootstrap?apiKey=${apiKey}&language=EN`, { headers: { 'accept-encoding': 'gzip' } });
    expect([gzipped.status, gzipped.headers.get('content-encoding'), gzipped.headers.get('vary')]).toEqual([200, 'gzip', 'Accept-Encoding']);
    expect(((await gzipped.json()) as { data: { words: object } }).data.words).toHaveProperty('EN');
    const gzippedKey = [...state.edge.copies().keys()].find((key) => key.includes(apiKey) && key.endsWith('"gzip"]'));
    expect(gzippedKey).toBeDefined();
    const secret = await bootstrap(await tenant.apiKey('secret'));
    expect([secret.status, secret.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const unknownLanguage = await bootstrap(apiKey, 'fr');
    expect([unknownLanguage.status, unknownLanguage.body.error.fields]).toEqual([400, { language: expect.any(String) }]);
    expect(unknownLanguage.headers.get('cache-control')).toBe(`public, max-age=${bound}, must-revalidate`);
    expect((await bootstrap('cms_pk_unknown')).status).toBe(401);
  });

  it('never caches a consent, a withdrawal or any other per-visitor call', async () => {
    const { notice, apiKey } = await site();
    const before = { ...state.edge.stats };
    const record = () =>
      call('POST', '/api/v1/consent/sdk-record', {
        body: { apiKey, status: 'ACCEPTED', purposes: { [notice.required]: true, [notice.optional]: true } },
        headers: { origin: 'http://localhost' },
      });
    const [one, two] = [await record(), await record()];
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.data.consentRecordId).not.toBe(two.body.data.consentRecordId);
    const withdrawn = await call('POST', '/api/v1/consent/sdk-withdraw', {
      body: { apiKey, consentRecordId: one.body.data.consentRecordId, withdrawalKey: one.body.data.withdrawalKey },
      headers: { origin: 'http://localhost' },
    });
    expect(withdrawn.status).toBe(200);
    const notices = await call('GET', `/api/v1/consent/public-notice?apiKey=${apiKey}`);
    for (const answer of [one, two, withdrawn, notices]) {
      expect(answer.headers.get('x-cache')).toBeNull();
      expect(answer.headers.get('cache-control') ?? '').not.toContain('public');
    }
    expect(state.edge.stats).toEqual(before);
  });
});
