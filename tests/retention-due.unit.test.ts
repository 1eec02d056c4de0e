import { describe, expect, it } from 'vitest';
import { purposeDues, sweepStep, type RecordFacts } from '../shared/retention/due';

const [p1, p2] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
const record = (createdAt: string, consentGiven: Record<string, boolean>, extra: Partial<RecordFacts> = {}): RecordFacts => ({ createdAt, consentGiven, withdrawnPurposes: [], isWithdrawn: false, withdrawnAt: null, ...extra });
const plain = { thirdScheduleClass: null, noticeHours: 0 } as const;

describe('when a principal\'s data falls due', () => {
  it('runs LAST_ACTIVITY from her last activity, CONSENT from her latest grant, WITHDRAWAL from her withdrawal or refusal', () => {
    const records = [record('2026-01-01T00:00:00.000Z', { [p1]: true, [p2]: true }, { withdrawnPurposes: [p2], withdrawnAt: '2026-02-01T00:00:00.000Z' })];
    const input = (retention: { period: string; from: 'LAST_ACTIVITY' | 'CONSENT' | 'WITHDRAWAL' }) => ({ purposes: [{ purposeId: p2, retention }], records, lastActivityAt: '2026-03-01T00:00:00.000Z', settings: plain });
    expect(purposeDues(input({ period: 'P1Y', from: 'LAST_ACTIVITY' }))).toEqual([{ purposeId: p2, dueAt: '2027-03-01T00:00:00.000Z' }]);
    expect(purposeDues(input({ period: 'P1Y', from: 'CONSENT' }))).toEqual([{ purposeId: p2, dueAt: '2027-01-01T00:00:00.000Z' }]);
    expect(purposeDues(input({ period: 'P30D', from: 'WITHDRAWAL' }))).toEqual([{ purposeId: p2, dueAt: '2026-03-03T00:00:00.000Z' }]);
    // A refusal starts the WITHDRAWAL clock too; a purpose she never decided on is not due.
    expect(purposeDues({ purposes: [{ purposeId: p1, retention: { period: 'PT1M', from: 'WITHDRAWAL' } }], records: [record('2026-01-01T00:00:00.000Z', { [p1]: false })], lastActivityAt: null, settings: plain })).toEqual([
      { purposeId: p1, dueAt: '2026-01-01T00:01:00.000Z' },
    ]);
    expect(purposeDues({ purposes: [{ purposeId: p1, retention: { period: 'PT1M', from: 'CONSENT' } }], records: [record('2026-01-01T00:00:00.000Z', { [p2]: true })], lastActivityAt: null, settings: plain })).toEqual([]);
  });

  it('bounds a Third Schedule tenant\'s purpose without an exception by three years from activity or the Rules\' commencement', () => {
    const settings = { thirdScheduleClass: 'ECOMMERCE', noticeHours: 48 } as const;
    const records = [record('2025-06-01T00:00:00.000Z', { [p1]: true, [p2]: true })];
    const dues = purposeDues({ purposes: [{ purposeId: p1 }, { purposeId: p2, thirdScheduleException: 'USER_ACCOUNT_ACCESS' }], records, lastActivityAt: null, settings });
    expect(dues).toEqual([{ purposeId: p1, dueAt: '2028-11-13T00:00:00.000Z' }]);
  });

  it('notices once, then expires no earlier than the notice plus noticeHours; activity since the notice cancels it', () => {
    const dues = [{ purposeId: p1, dueAt: '2026-05-10T00:00:00.000Z' }];
    const at = (iso: string) => new Date(iso);
    expect(sweepStep({ dues, noticeHours: 48, noticeSentAt: null, noticedDueAt: null, now: at('2026-05-01T00:00:00.000Z') })).toEqual({ kind: 'wait', nextAt: '2026-05-08T00:00:00.000Z', cancelled: false });
    expect(sweepStep({ dues, noticeHours: 48, noticeSentAt: null, noticedDueAt: null, now: at('2026-05-08T00:00:00.000Z') })).toEqual({ kind: 'notice', dueAt: '2026-05-10T00:00:00.000Z', purposeIds: [p1] });
    // A sweep that comes late still gives the full 48 hours.
    expect(sweepStep({ dues, noticeHours: 48, noticeSentAt: null, noticedDueAt: null, now: at('2026-05-11T00:00:00.000Z') })).toEqual({ kind: 'notice', dueAt: '2026-05-13T00:00:00.000Z', purposeIds: [p1] });
    const noticed = { noticeHours: 48, noticeSentAt: '2026-05-08T00:00:00.000Z', noticedDueAt: '2026-05-10T00:00:00.000Z' };
    expect(sweepStep({ dues, ...noticed, now: at('2026-05-09T00:00:00.000Z') })).toEqual({ kind: 'wait', nextAt: '2026-05-10T00:00:00.000Z', cancelled: false });
    expect(sweepStep({ dues, ...noticed, now: at('2026-05-10T00:00:00.000Z') })).toEqual({ kind: 'expire', dueAt: '2026-05-10T00:00:00.000Z', purposeIds: [p1] });
    const later = [{ purposeId: p1, dueAt: '2026-08-09T00:00:00.000Z' }];
    expect(sweepStep({ dues: later, ...noticed, now: at('2026-05-10T00:00:00.000Z') })).toEqual({ kind: 'wait', nextAt: '2026-08-07T00:00:00.000Z', cancelled: true });
    expect(sweepStep({ dues, noticeHours: 0, noticeSentAt: null, noticedDueAt: null, now: at('2026-05-10T00:00:00.000Z') })).toEqual({ kind: 'expire', dueAt: '2026-05-10T00:00:00.000Z', purposeIds: [p1] });
    expect(sweepStep({ dues: [], noticeHours: 0, noticeSentAt: null, noticedDueAt: null, now: at('2026-05-10T00:00:00.000Z') })).toEqual({ kind: 'none' });
  });
});
