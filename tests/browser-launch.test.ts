import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { axeViolations, useBrowser } from './support/browser';

const { browser } = useBrowser();

describe('headless Chromium', () => {
  it('renders a loopback page and runs axe-core in it', async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html lang="en"><title>t</title><main><h1>Hello</h1><img src="data:,"></main></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const page = await browser().newPage();
    try {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await page.$eval('h1', (h1) => h1.textContent)).toBe('Hello');
      // The image has no alt text: axe must find it, or the check could never fail.
      expect((await axeViolations(page)).map((violation) => violation.id)).toContain('image-alt');
    } finally {
      await page.close();
      server.close();
    }
  });
});
