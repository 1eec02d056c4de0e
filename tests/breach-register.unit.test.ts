import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clockOf, dueTimes, filingTimes, missingItems, type Breach } from '../shared/breaches/breach';
import { intimationMail, mailLanguage } from '../shared/breaches/mail';
import { defaultIntimationLabel } from '../shared/breaches/mail-labels';
import { boardDocumentModel } from '../shared/breaches/board-document';
import { documentHeaders, renderDocument } from '../shared/documents/render';
import { updateParts } from '../shared/breaches/store';
import { emailOf, openContact, sealContact } from '../shared/consent/contact';
import { principalHash } from '../shared/consent/principal';

/** The register's pure parts: clocks and lateness, what a filing lacks, the mail's words, the printable page, the update builder. */
const hourMs = 3_600_000;
const awareAt = '2026-11-20T10:00:00.000Z';

const breach = (overrides: Partial<Breach> = {}): Breach => ({
  tenantId: 't',
  breachId: '01935f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
  title: 'Leak',
  status: 'OPEN',
  awareAt,
  occurredAt: null,
  nature: 'nature',
  extent: 'extent',
  location: 'location',
  likelyImpact: 'impact',
  dataCategories: ['email'],
  affected: { scope: 'ALL', noticeIds: [], purposeIds: [] },
  listedPrincipals: 0,
  listedChunks: 0,
  factsAndReasons: null,
  mitigationMeasures: null,
  causeFindings: null,
  remedialMeasures: null,
  extension: null,
  filings: {},
  intimation: { status: 'NOT_STARTED', runId: null, runs: 0, startedAt: null, finishedAt: null, textDocumentId: null, resolved: false, batchesPlanned: 0, batchesDone: 0, lastProgressAt: null },
  progress: { total: 0, mailed: 0, viaTenant: 0, awaitingTenant: 0, failed: 0 },
  createdAt: awareAt,
  updatedAt: awareAt,
  closedAt: null,
  version: 1,
  ...overrides,
});
const at = (hours: number) => new Date(Date.parse(awareAt) + hours * hourMs).toISOString();

describe('clocks', () => {
  it('dues the intimation at awareAt and the report 72 hours later, or when the Board allowed', () => {
    expect(dueTimes(breach())).toEqual({ boardIntimationDueAt: awareAt, detailedReportDueAt: at(72) });
    expect(dueTimes(breach({ extension: { grantedUntil: at(120), reference: 'r', at: at(10) } })).detailedReportDueAt).toBe(at(120));
  });

  it('judges lateness at the deadline to the millisecond: 6 hours for the intimation, the due time for the report', () => {
    expect(filingTimes(breach(), 'INTIMATION', at(6)).late).toBe(false);
    expect(filingTimes(breach(), 'INTIMATION', new Date(Date.parse(at(6)) + 1).toISOString()).late).toBe(true);
    expect(filingTimes(breach(), 'DETAILED_REPORT', at(72))).toEqual({ dueAt: at(72), lateAfter: at(72), late: false });
    expect(filingTimes(breach(), 'DETAILED_REPORT', at(73)).late).toBe(true);
  });

  it('freezes a filed clock: later extensions or time change nothing of it', () => {
    const filed = breach({ filings: { DETAILED_REPORT: { filedAt: at(80), late: true, dueAt: at(72), lateAfter: at(72), documentId: 'd' } }, extension: { grantedUntil: at(200), reference: 'r', at: at(90) } });
    expect(clockOf(filed, 'DETAILED_REPORT', new Date(at(500)))).toEqual({ dueAt: at(72), lateAfter: at(72), filedAt: at(80), late: true, overdue: false, documentId: 'd' });
    expect(clockOf(breach(), 'DETAILED_REPORT', new Date(at(73)))).toMatchObject({ filedAt: null, late: null, overdue: true });
  });
});

describe('missing items', () => {
  it('names each item the detailed report lacks with its Rule 7 numbering, and nothing once complete', () => {
    const missing = missingItems(breach(), 'DETAILED_REPORT');
    expect(Object.keys(missing).sort()).toEqual(['boardIntimation', 'causeFindings', 'factsAndReasons', 'mitigationMeasures', 'occurredAt', 'principalIntimation', 'remedialMeasures']);
    expect(missing.factsAndReasons).toMatch(/^\(ii\)/);
    expect(missing.principalIntimation).toMatch(/^\(vi\)/);
    // Written for the DPO who reads the list: no API route in any item (issue 37, defect 6).
    for (const item of Object.values(missing)) expect(item).not.toMatch(/\/|POST|PUT|:breachId/);
    const complete = breach({
      occurredAt: at(-5),
      factsAndReasons: 'f',
      mitigationMeasures: 'm',
      causeFindings: 'c',
      remedialMeasures: 'r',
      filings: { INTIMATION: { filedAt: at(1), late: false, dueAt: awareAt, lateAfter: at(6), documentId: 'd' } },
      intimation: { ...breach().intimation, status: 'DONE', runs: 1 },
    });
    expect(missingItems(complete, 'DETAILED_REPORT')).toEqual({});
    expect(missingItems({ ...complete, intimation: { ...complete.intimation, status: 'RUNNING' } }, 'DETAILED_REPORT').principalIntimation).toContain('still running');
    expect(missingItems(breach(), 'INTIMATION')).toEqual({});
  });
});

describe('the intimation mail', () => {
  // A run's words as logged: the tenant's English in full (here the catalogue's), its Hindi shown words, a Tamil subject of the intimation's own.
  const hindiLabels = {
    subject: '{tenant}: आपके डेटा को प्रभावित करने वाला व्यक्तिगत डेटा उल्लंघन',
    whatHappenedHeading: 'क्या हुआ',
  };
  const text = {
    whatHappened: 'w-en',
    consequences: 'c-en',
    mitigation: 'm-en',
    safetySteps: 's-en',
    contact: 'dpo@shop.example',
    translations: {
      HI: { whatHappened: 'w-hi', consequences: 'c-hi', mitigation: 'm-hi', safetySteps: 's-hi', labels: hindiLabels },
      TA: { whatHappened: 'w-ta', consequences: 'c-ta', mitigation: 'm-ta', safetySteps: 's-ta', labels: { subject: 'தரவு மீறல்: {tenant}' } },
    },
  };

  it('writes in the language of the latest consent only when the intimation has texts in it', () => {
    expect(mailLanguage('HI', text)).toBe('HI');
    expect(mailLanguage('BN', text)).toBe('EN');
    expect(mailLanguage(undefined, text)).toBe('EN');
    expect(mailLanguage('XX', text)).toBe('EN');
  });

  it("carries the five items of Rule 7(1), the run's labels around the tenant's words in the language, English marked where a label is missing", () => {
    const mail = intimationMail('a@x.in', { name: 'Shop' }, breach(), text, 'HI');
    expect(mail.subject).toBe('Shop: आपके डेटा को प्रभावित करने वाला व्यक्तिगत डेटा उल्लंघन');
    // Times in the tenant's zone (India's by default), in her language, with UTC beside.
    for (const part of ['क्या हुआ', 'w-hi', '20 नव॰ 2026, 15:30 IST (10:00 UTC)', 'c-hi', 'm-hi', 's-hi', 'dpo@shop.example']) expect(mail.text).toContain(part);
    expect(mail.text).not.toContain('c-en');
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="hi" dir="ltr">/);
    // A heading the run has no Hindi for is English, marked so inside the Hindi mail.
    expect(mail.html).toContain(`<span lang="en" dir="ltr">${defaultIntimationLabel('consequencesHeading')}</span><br>c-hi`);
    const tamil = intimationMail('a@x.in', { name: 'Shop', timeZone: 'UTC' }, breach({ occurredAt: at(-2) }), text, 'TA');
    expect(tamil.subject).toBe('தரவு மீறல்: Shop');
    expect(tamil.text).toContain(defaultIntimationLabel('consequencesHeading'));
    expect(tamil.text).toContain('it happened on 20 நவ., 2026, 08:00 UTC');
  });

  it("sends principals only the texts written for them: never the register's nature, extent or location", () => {
    const internal = breach({ nature: 'Bucket s3://orders-prod-backups was public', extent: '12,000 rows of table customers', location: 'AWS ap-south-1, account 1234' });
    const mail = intimationMail('a@x.in', { name: 'Shop' }, internal, text, 'EN');
    expect(mail.text).toContain('w-en');
    for (const secret of ['s3://', 'customers', 'ap-south-1', 'account 1234']) expect(mail.text).not.toContain(secret);
  });
});

describe('the filing as a document', () => {
  it('escapes every value and allows nothing but its one hashed style', () => {
    const html = renderDocument(
      boardDocumentModel(
        { stage: 'INTIMATION', filed: false, filedAt: null, late: null, documentId: null, filedBy: null, missing: { nature: '<b>x</b>' }, document: { title: '"><img src=x onerror=alert(1)>', breachId: 'b', description: { nature: '<script>alert(1)</script>' } } },
        { tenant: { name: 'Shop <i>' }, dpoContact: null, noticeTitles: new Map(), purposeNames: new Map(), webhookSubscribed: false },
      ),
    );
    expect(html).not.toMatch(/<img|<script|<b>|<i>/);
    expect(html).toContain('&quot;&gt;&lt;img src=x');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('Draft, not filed');
    const style = /<style>([\s\S]*)<\/style>/.exec(html)![1]!;
    const hash = (documentHeaders('x', false)['Content-Security-Policy']!.match(/'sha256-([^']+)'/) ?? [])[1];
    expect(hash).toBe(createHash('sha256').update(style).digest('base64'));
  });
});

describe('the sealed contact', () => {
  it('recognises emails, seals them, and opens them only for their own principal', () => {
    expect(emailOf(' Asha@Example.IN ')).toBe('asha@example.in');
    expect(emailOf('customer-42')).toBeUndefined();
    const sealed = sealContact('asha@example.in');
    expect(sealed).not.toContain('asha');
    expect(openContact(sealed, principalHash('asha@example.in'))).toBe('asha@example.in');
    expect(() => openContact(sealed, principalHash('ravi@example.in'))).toThrow();
    expect(() => openContact(`${sealed.slice(0, -4)}AAAA`, principalHash('asha@example.in'))).toThrow();
  });
});

describe('breach updates', () => {
  it('declares exactly the names and values its expressions use; a counter a breach of an older layout lacks counts from 0', () => {
    const parts = updateParts({ set: { 'intimation.status': 'DONE' }, add: { 'progress.total': 3 }, condition: '#intimation.#runId = :run', values: { ':run': 'r' } });
    expect(parts.UpdateExpression).toBe('SET #intimation.#status = :s0, #progress.#total = if_not_exists(#progress.#total, :zero) + :a0');
    expect(Object.keys(parts.ExpressionAttributeNames).sort()).toEqual(['#intimation', '#progress', '#runId', '#status', '#total']);
    expect(parts.ExpressionAttributeValues).toEqual({ ':s0': 'DONE', ':a0': 3, ':zero': 0, ':run': 'r' });
  });
});
