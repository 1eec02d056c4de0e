import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { durationSchema, longerThan, parseDuration, periodEnd } from '../shared/retention/duration';
import { keepsPastSchedule } from '../shared/retention/settings';
import { classes, exceptions, sources, thirdSchedule } from '../shared/retention/third-schedule';

const accepted = (text: string) => z.safeParse(durationSchema, text).success;

describe('retention periods (ISO 8601 durations)', () => {
  it('accepts durations of at least PT1M and at most P100Y, and nothing else', () => {
    for (const text of ['PT1M', 'PT60S', 'P3Y', 'P36M', 'P90D', 'P1W', 'P1Y2M3DT4H5M6.5S', 'P100Y']) expect(accepted(text), text).toBe(true);
    for (const text of ['PT59S', 'PT0S', 'P0D', 'P', 'PT', 'P1.5Y', '-P1Y', 'p3y', '3Y', 'P3Y ', 'P101Y', 'P99999999999999999999Y', 'P1W2D']) expect(accepted(text), text).toBe(false);
  });

  it('adds calendar years and months with the day clamped to the month, then days and time', () => {
    expect(periodEnd('2024-02-29T10:00:00.000Z', 'P3Y').toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(periodEnd('2025-01-31T00:00:00.000Z', 'P1M').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(periodEnd('2025-01-01T00:00:00.000Z', 'P1DT1H1M1.5S').toISOString()).toBe('2025-01-02T01:01:01.500Z');
    expect(periodEnd('2025-01-01T00:00:00.000Z', 'PT1M').toISOString()).toBe('2025-01-01T00:01:00.000Z');
  });

  it('calls a period longer than P3Y when it reaches past three years from some start', () => {
    const threeYears = parseDuration('P3Y')!;
    for (const text of ['P3YT1S', 'P5Y', 'P1096D', 'P2Y11M31D', 'P37M']) expect(longerThan(parseDuration(text)!, threeYears), text).toBe(true);
    for (const text of ['P3Y', 'P36M', 'P1095D', 'P2Y12M', 'P6M']) expect(longerThan(parseDuration(text)!, threeYears), text).toBe(false);
  });

  it('holds a purpose past the Third Schedule only from LAST_ACTIVITY, longer than P3Y, without an exception', () => {
    expect(keepsPastSchedule({ retention: { period: 'P5Y', from: 'LAST_ACTIVITY' } })).toBe(true);
    expect(keepsPastSchedule({ retention: { period: 'P5Y', from: 'LAST_ACTIVITY' }, thirdScheduleException: 'USER_ACCOUNT_ACCESS' })).toBe(false);
    expect(keepsPastSchedule({ retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } })).toBe(false);
    expect(keepsPastSchedule({ retention: { period: 'P5Y', from: 'CONSENT' } })).toBe(false);
    expect(keepsPastSchedule({ retention: null })).toBe(false);
  });

  it('encodes the Third Schedule as data with its sources: three classes with thresholds, two exceptions, 48 hours', () => {
    expect(Object.entries(classes).map(([id, entry]) => [id, entry.serial, entry.registeredUsersAtLeast])).toEqual([
      ['ECOMMERCE', 1, 20_000_000],
      ['ONLINE_GAMING', 2, 5_000_000],
      ['SOCIAL_MEDIA', 3, 20_000_000],
    ]);
    expect(Object.values(exceptions).map((entry) => entry.clause)).toEqual(['(a)', '(b)']);
    const schedule = thirdSchedule();
    expect(schedule.noticeHours).toBe(48);
    expect(schedule.logRetentionDays).toBeGreaterThanOrEqual(365);
    expect(schedule.classes.every((entry) => entry.period === 'P3Y')).toBe(true);
    for (const source of Object.values(sources)) expect(source.url).toMatch(/^https:\/\//);
  });
});
