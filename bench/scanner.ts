/**
 * `npm run bench:scanner`: one full-size scan run (3 scan URLs with 10 links each, cut at 30 pages,
 * both passes where the page runs the banner) against a loopback fixture site, through the real
 * proxy and Chromium. Prints pages per minute and the peak resident memory of this process plus
 * Chromium's (every process whose command line names the run's temporary directory), sampled
 * every 100 ms, and writes them to bench/results/scanner.json.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { crawl } from '../shared/scanner/crawl';
import { machineInfo } from './report';

const page = (index: number) =>
  `<!doctype html><html><head><title>Page ${index}</title><script>document.cookie = '_ga=GA1.1.${index}; path=/'; localStorage.setItem('k${index}', '1');</script></head>` +
  `<body><h1>Page ${index}</h1>${Array.from({ length: 12 }, (_, link) => `<a href="/p/${index * 100 + link}">${link}</a>`).join(' ')}</body></html>`;

const rssKb = (pid: string): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** This process plus every process started for the scan (their command lines name its cms-scan- directory). */
const sampleKb = (): number => {
  let total = rssKb(String(process.pid));
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cms-scan-')) total += rssKb(pid);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
};

const main = async () => {
  const server = http.createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(page(Number(/\d+/.exec(request.url ?? '')?.[0] ?? 0)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let peakKb = 0;
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, sampleKb())), 100);
  const started = performance.now();
  const result = await crawl([1, 2, 3].map((index) => `${origin}/start/${index}`), { allowLocal: true });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  server.close();
  const figures = {
    pages: result.pages.length,
    seconds: Math.round(seconds * 10) / 10,
    pagesPerMinute: Math.round((result.pages.length / seconds) * 60),
    peakMemoryMb: Math.round(peakKb / 1024),
    observations: result.observations.length,
    machine: machineInfo(),
  };
  console.log(`scanner: ${figures.pages} pages in ${figures.seconds} s = ${figures.pagesPerMinute} pages/minute; peak memory (node + Chromium) ${figures.peakMemoryMb} MB`);
  writeFileSync(fileURLToPath(new URL('./results/scanner.json', import.meta.url)), `${JSON.stringify(figures, null, 2)}\n`);
};

await main();
