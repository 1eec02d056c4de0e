import type { Browser } from 'puppeteer-core';
import { expect } from 'vitest';

/**
 * Reading the service's documents back as a person would: the text a browser shows of the HTML,
 * and the text of the PDF (extracted with pdf.js, Mozilla's PDF reader, not by hand).
 */
export const pdfText = async (bytes: Uint8Array): Promise<string> => {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join('\n');
};

/** What the page shows, as Chromium lays it out for print (the PDF's own media), at A4 width. */
export const shownText = async (browser: Browser, html: string, width = 794): Promise<string> => {
  const page = await browser.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width, height: 1123 });
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMediaType('print');
    return await page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
  } finally {
    await page.close();
  }
};

/** Text compared without its layout: every run of white space dropped (a PDF breaks lines, and long hashes, where it must). */
export const compact = (text: string) => text.replace(/\s+/g, '');

/** `awareAt` → "Aware At": how a field name reads when a renderer splits it into a label (the Rule's own words may share a word or two with a field). */
const splitForms = (name: string) => {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').split(' ');
  return words.length < 2 ? [] : [words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ')];
};

const keysOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap(keysOf) : value && typeof value === 'object' ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]) : [];

/** A document a DPO can attach: no raw JSON, no ISO timestamps (milliseconds or not), no booleans or null, no field name split into words. */
export const expectReadable = (text: string, json: unknown) => {
  expect(text).not.toMatch(/[{[]\s*"|"\s*:/);
  expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  expect(text).not.toMatch(/\b(true|false|null|undefined|NaN)\b|\[object /);
  expect(text).not.toMatch(/\bnone\b/);
  const splitLabels = [...new Set(keysOf(json).flatMap(splitForms))].filter((label) => text.includes(label));
  expect(splitLabels).toEqual([]);
};
