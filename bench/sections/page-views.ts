import { gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { startApiServer, type HandlerSource } from '../../infra/local/server';
import { fixedClock, resetClock, setClock } from '../../shared/clock';
import { saveConfig, upsertTrackers } from '../../shared/cmp/service';
import { edgeCachePolicies } from '../../shared/http/edge-cache';
import { buildWebApp } from '../../web/build';
import type { DeployedFunction } from '../deployment';
import type { BenchTenant } from '../fixtures';
import { measure } from '../meter';
import { billed, cloudFrontIndia, cloudFrontUsd, perConsentStage, priceOf, rates, tally, type Tally } from '../pricing';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { measureBannerTiming, todayCommit, type BannerTiming } from './banner-timing';

/**
 * The price of a page view, and how fast its banner shows. A simulated site's page views go
 * through the local edge (infra/local/edge.ts, keyed as CloudFront's policy is) with the service's
 * clock stepped per page view, so minutes of traffic take seconds and the hit ratio and the
 * origin's invocations are what that traffic makes. Every page view's bytes are measured as sent;
 * every request that reaches the origin runs the real handler and is metered (CPU, wall time,
 * DynamoDB work) and priced as today's API calls are (pricing.ts). "Today" is priced the same way:
 * the two uncached API calls the widget made before the bootstrap, measured through the same server.
 */

/** "Tens of millions of page views a month": 30 million, evenly spread (11.6 a second). */
const pageViewsPerSecond = 30_000_000 / (30 * 86_400);
/** The languages the site's visitors read in (an English, Hindi and Tamil site), by share of page views. */
const languageMix: [string, number][] = [
  ['EN', 0.6],
  ['HI', 0.3],
  ['TA', 0.1],
];
/** CloudFront's own headers on every answer (Via, X-Amz-Cf-Pop, X-Amz-Cf-Id, X-Cache), which the local server does not send. */
const cloudFrontHeaderBytes = 200;

/** The language of a page view, from a uniform draw in [0, 1). */
const pickLanguage = (draw: number): string => {
  let below = 0;
  for (const [code, share] of languageMix) if (draw < (below += share)) return code;
  return languageMix[0]![0];
};

/** A seeded generator (mulberry32): the same traffic every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

/** One GET as a browser sends it; the bytes that came back (status line, headers and body as sent). */
const get = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; etag: string | undefined; bytes: number }>((resolve, reject) => {
    request(url, { headers }, (response) => {
      let body = 0;
      response.on('data', (chunk: Buffer) => (body += chunk.length));
      response.on('end', () => {
        const head = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n${response.rawHeaders.map((value, index) => (index % 2 ? `${value}\r\n` : `${value}: `)).join('')}\r\n`;
        resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, bytes: Buffer.byteLength(head) + body + cloudFrontHeaderBytes });
      });
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

const browserHeaders = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Mozilla/5.0 (bench)', accept: '*/*' };

export interface PageViewsResult {
  usdPerMillionFirstVisit: number;
  usdPerMillionReturning: number;
  lambdaInvocationsPerThousand: number;
  /** Median ms from first contentful paint to the frame that paints the banner (the edge's widget), or null when it could not be timed. */
  bannerAfterFcpMs: number | null;
  today: { usdPerMillionFirstVisit: number; usdPerMillionReturning: number; lambdaInvocationsPerThousand: number; bannerAfterFcpMs: number | null };
  traffic: { pageViewsPerSecond: number; languages: [string, number][]; simulatedSeconds: number; pageViews: number; edgeHitRatio: number; originRequests: number };
  /** USD per million page views, by what is billed. */
  breakdown: Record<'firstVisit' | 'returning' | 'todayFirstVisit' | 'todayReturning', Record<string, number>>;
  bytes: Record<string, number>;
  originUsdPerMillionCalls: Record<string, number>;
  rates: typeof cloudFrontIndia;
  timing: BannerTiming;
}

export const measurePageViews = async (tenant: BenchTenant, functions: Map<string, DeployedFunction>, settings: Settings): Promise<PageViewsResult> => {
  // A tenant as a large Indian site runs it: notice, cookie banner in three languages, a dozen trackers.
  await saveConfig(tenant.tenantId, { languages: ['en', 'hi', 'ta'] });
  await upsertTrackers(
    tenant.tenantId,
    Array.from({ length: 12 }, (_, index) => ({ domain: `tracker-${index}.example`, cookieName: `_t${index}`, category: (['ANALYTICS', 'MARKETING', 'FUNCTIONAL'] as const)[index % 3]! })),
  );
  // Every request that reaches a function is metered, by route.
  const origin: Record<string, Tally> = {};
  const metered: HandlerSource = (group) =>
    import(`../../functions/${group}/handler.ts`).then(({ handler }: { handler: Awaited<ReturnType<HandlerSource>> }) => async (event, context) => {
      const { result, work, ms, cpuMs } = await measure(() => handler(event, context));
      billed((origin[event.routeKey] ??= tally()), { ms, cpuMs }, work);
      return result;
    });
  const api = await startApiServer(0, '127.0.0.1', undefined, metered);
  const memoryMb = functions.get('consent-public')?.memoryMb ?? 512;
  const cmpMemoryMb = functions.get('cmp-public')?.memoryMb ?? 512;
  const routeCost = (routeKey: string, memory: number) => {
    const stage = origin[routeKey];
    if (!stage || stage.invocations.length === 0) throw new Error(`no metered call of ${routeKey}`);
    return priceOf({ call: perConsentStage(stage, stage.invocations.length, memory) }).usd.total / 1e6;
  };
  try {
    // The traffic: page views at the site's rate, the clock stepped between them; the first minute
    // (ten seconds in a quick run: every language is asked for by then) warms the edge and is not counted.
    const warmupSeconds = settings.quick ? 10 : 60;
    const measuredSeconds = settings.quick ? 60 : 600;
    const next = random(35);
    const bootstrapUrl = (language: string) => `${api.url}/api/v1/widget/bootstrap?apiKey=${encodeURIComponent(tenant.apiKey)}&language=${language}`;
    const heldEtag = new Map<string, string>();
    const counted = { pageViews: 0, first: { n: 0, bytes: 0 }, returning: { n: 0, bytes: 0 } };
    let now = Date.now();
    let originBefore = 0;
    let hitsBefore = 0;
    const total = Math.round((warmupSeconds + measuredSeconds) * pageViewsPerSecond);
    for (let view = 0; view < total; view += 1) {
      now += 1000 / pageViewsPerSecond;
      setClock(fixedClock(new Date(now)));
      const language = pickLanguage(next());
      // Every other page view is a returning visitor's: its browser revalidates the copy it holds.
      const returning = view % 2 === 1 && heldEtag.has(language);
      const answer = await get(bootstrapUrl(language), { ...browserHeaders, ...(returning ? { 'if-none-match': heldEtag.get(language)! } : {}) });
      if (answer.status !== 200 && answer.status !== 304) throw new Error(`bootstrap answered ${answer.status}`);
      if (answer.etag) heldEtag.set(language, answer.etag);
      const warmup = Math.round(warmupSeconds * pageViewsPerSecond);
      if (view === warmup - 1) {
        originBefore = api.edge.stats.originRequests;
        hitsBefore = api.edge.stats.hits;
      }
      if (view < warmup) continue;
      counted.pageViews += 1;
      const kind = returning ? counted.returning : counted.first;
      kind.n += 1;
      kind.bytes += answer.bytes;
    }
    resetClock();
    const originRequests = api.edge.stats.originRequests - originBefore;
    const hits = api.edge.stats.hits - hitsBefore;
    const missShare = originRequests / counted.pageViews;
    const bootstrapCall = routeCost('GET /api/v1/widget/bootstrap', memoryMb);

    // The script, as CloudFront sends it: gzipped on a first visit, a 304 once its five minutes
    // lapsed; with about 400 and 300 bytes of the bucket's headers (type, length, ETag, Last-Modified,
    // Cache-Control, date, server). Its origin, the bucket, is a fetch every five minutes per edge: not priced.
    const script = buildWebApp('widget').get('v1/cms.js')!.contents;
    const scriptBytes = { first: gzipSync(script).length + 400 + cloudFrontHeaderBytes, returning: 300 + cloudFrontHeaderBytes };

    // Today: public-notice and cmp/config, uncached, each a function call; a returning visitor's cmp/config is a 304 after a CORS preflight (its If-None-Match).
    const samples = settings.quick ? 5 : 20;
    const today = { notice: 0, configFirst: 0, configReturning: 0 };
    for (let sample = 0; sample < samples; sample += 1) {
      today.notice += (await get(`${api.url}/api/v1/consent/public-notice?apiKey=${encodeURIComponent(tenant.apiKey)}`, browserHeaders)).bytes / samples;
      const config = await get(`${api.url}/api/v1/cmp/config/${tenant.tenantId}`, browserHeaders);
      today.configFirst += config.bytes / samples;
      today.configReturning += (await get(`${api.url}/api/v1/cmp/config/${tenant.tenantId}`, { ...browserHeaders, 'if-none-match': config.etag! })).bytes / samples;
    }
    const noticeCall = routeCost('GET /api/v1/consent/public-notice', memoryMb);
    const configCall = routeCost('GET /api/v1/cmp/config/{tenantId}', cmpMemoryMb);
    // API Gateway answers the preflight itself: a CloudFront request and an API request, no function.
    const preflight = cloudFrontUsd(400 + cloudFrontHeaderBytes);

    const perMillion = (parts: Record<string, number>) => Object.fromEntries(Object.entries(parts).map(([name, usd]) => [name, Math.round(usd * 1e6 * 10_000) / 10_000]));
    const cf = (bytes: number[]) => ({ cloudFrontRequests: bytes.length * cloudFrontUsd(0).requests, cloudFrontDataTransfer: bytes.reduce((sum, value) => sum + cloudFrontUsd(value).dataTransfer, 0) });
    const meanFirst = counted.first.bytes / counted.first.n;
    const meanReturning = counted.returning.bytes / counted.returning.n;
    const breakdown = {
      firstVisit: perMillion({ ...cf([scriptBytes.first, meanFirst]), originCalls: missShare * bootstrapCall }),
      returning: perMillion({ ...cf([scriptBytes.returning, meanReturning]), originCalls: missShare * bootstrapCall }),
      todayFirstVisit: perMillion({ ...cf([scriptBytes.first, today.notice, today.configFirst]), originCalls: noticeCall + configCall }),
      todayReturning: perMillion({
        ...cf([scriptBytes.returning, today.notice, today.configReturning]),
        corsPreflight: preflight.requests + preflight.dataTransfer + rates.apiGatewayPerMillion / 1e6,
        originCalls: noticeCall + configCall,
      }),
    };
    const sum = (parts: Record<string, number>) => Math.round(Object.values(parts).reduce((total, value) => total + value, 0) * 100) / 100;

    const timing = await measureBannerTiming(api.url, tenant, settings.quick ? 3 : 20);
    const todayTiming = 'missing' in timing.today ? null : timing.today.afterFcpMs;
    // Today's two calls reach a function on every page view, by construction: 2,000 per 1,000.
    const result: PageViewsResult = {
      usdPerMillionFirstVisit: sum(breakdown.firstVisit),
      usdPerMillionReturning: sum(breakdown.returning),
      lambdaInvocationsPerThousand: Math.round((originRequests / counted.pageViews) * 1000 * 100) / 100,
      bannerAfterFcpMs: timing.edge.afterFcpMs,
      today: { usdPerMillionFirstVisit: sum(breakdown.todayFirstVisit), usdPerMillionReturning: sum(breakdown.todayReturning), lambdaInvocationsPerThousand: 2000, bannerAfterFcpMs: todayTiming },
      traffic: {
        pageViewsPerSecond: Math.round(pageViewsPerSecond * 100) / 100,
        languages: languageMix,
        simulatedSeconds: measuredSeconds,
        pageViews: counted.pageViews,
        edgeHitRatio: Math.round((hits / counted.pageViews) * 10_000) / 10_000,
        originRequests,
      },
      breakdown,
      bytes: {
        scriptFirstVisit: scriptBytes.first,
        scriptReturning: scriptBytes.returning,
        bootstrapFirstVisit: Math.round(meanFirst),
        bootstrapReturning: Math.round(meanReturning),
        todayPublicNotice: Math.round(today.notice),
        todayCmpConfigFirstVisit: Math.round(today.configFirst),
        todayCmpConfigReturning: Math.round(today.configReturning),
      },
      originUsdPerMillionCalls: perMillion({ bootstrap: bootstrapCall, publicNotice: noticeCall, cmpConfig: configCall }),
      rates: cloudFrontIndia,
      timing,
    };
    printPageViews(result);
    return result;
  } finally {
    resetClock();
    api.server.closeAllConnections();
    api.server.close();
  }
};

const printPageViews = (result: PageViewsResult) => {
  const usd = (value: number) => `$${value.toFixed(2)}`;
  const parts = (breakdown: Record<string, number>) => Object.entries(breakdown).map(([name, value]) => `${name} ${usd(value)}`).join(', ');
  const path = (timing: Exclude<PageViewsResult['timing']['today'], { missing: string }>) =>
    `${timing.afterFcpMs} ms (FCP ${timing.fcpMs}, script ${timing.scriptMs}, API ${timing.apiStartMs}–${timing.apiEndMs}, banner ${timing.bannerMs} ms)`;
  const todayTiming = 'missing' in result.timing.today ? `not timed (${result.timing.today.missing})` : path(result.timing.today);
  printTable(
    'Page views: the banner from the edge, per million page views (CloudFront India, origin calls as API calls)',
    ['Measure', 'Now (bootstrap at the edge)', `Before (${todayCommit.slice(0, 7)}: two API calls)`, 'Target'],
    [
      ['USD per million first-visit page views', `${usd(result.usdPerMillionFirstVisit)} (${parts(result.breakdown.firstVisit)})`, `${usd(result.today.usdPerMillionFirstVisit)} (${parts(result.breakdown.todayFirstVisit)})`, '≤ $1.00'],
      ['USD per million returning page views', `${usd(result.usdPerMillionReturning)} (${parts(result.breakdown.returning)})`, `${usd(result.today.usdPerMillionReturning)} (${parts(result.breakdown.todayReturning)})`, '—'],
      ['Lambda invocations per 1,000 page views', `${result.lambdaInvocationsPerThousand} (edge hit ratio ${(result.traffic.edgeHitRatio * 100).toFixed(2)} %)`, '2,000', '≤ 5'],
      ['Banner after first contentful paint, median', path(result.timing.edge), todayTiming, '≤ 16 ms'],
      ['Bytes per page view: script, bootstrap (first visit / returning)', `${result.bytes.scriptFirstVisit} / ${result.bytes.scriptReturning}; ${result.bytes.bootstrapFirstVisit} / ${result.bytes.bootstrapReturning}`, `public-notice ${result.bytes.todayPublicNotice}, cmp/config ${result.bytes.todayCmpConfigFirstVisit} / ${result.bytes.todayCmpConfigReturning}`, '—'],
    ],
    [
      `Traffic: ${result.traffic.pageViews} page views over ${result.traffic.simulatedSeconds} simulated seconds at ${result.traffic.pageViewsPerSecond} a second (30 million a month), languages ${result.traffic.languages.map(([code, share]) => `${code} ${share * 100} %`).join(', ')}, every other one a returning visitor's revalidation; one regional cache (each more in front of the origin adds its own misses). Bound ${edgeCachePolicies.widgetBootstrap.maxAgeSeconds} s.`,
      `CloudFront India: $${result.rates.httpsRequestPerTenThousand} per 10,000 HTTPS requests, $${result.rates.dataTransferOutPerGb} per GB out (first 10 TB), read ${result.rates.readOn}. Origin calls: API Gateway, Lambda at the function's memory from its measured time, DynamoDB reads (pricing.ts); per million calls: ${parts(result.originUsdPerMillionCalls)}.`,
      `Timing: ${result.timing.runs} first visits each (empty cache), headless Chromium on loopback; the banner's frame is the first animation frame whose DOM holds its dialog.`,
    ],
  );
};
