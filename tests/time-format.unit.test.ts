import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readableTime } from '../shared/mail/compose';
import { formatDate, formatTime, isoOfWallClock, wallClockOf } from '../shared/time/format';

/**
 * Issue 37, defect 7: one formatter for every time a person reads (dashboard, public pages, mails,
 * documents), in the tenant's zone (India's by default), to the minute, with UTC beside where the
 * text is evidence; and a time typed in a form means the tenant's wall clock, not the browser's.
 */
describe('the one time formatter', () => {
  it('reads a time typed as 00:30 IST on the 5th as 19:00 UTC on the 4th, and back, whatever zone the machine is in', () => {
    expect(isoOfWallClock('2026-03-05T00:30', 'Asia/Kolkata')).toBe('2026-03-04T19:00:00.000Z');
    expect(isoOfWallClock('2026-03-05T00:30')).toBe('2026-03-04T19:00:00.000Z');
    expect(wallClockOf('2026-03-04T19:00:00.000Z', 'Asia/Kolkata')).toBe('2026-03-05T00:30');
    // A zone with daylight saving: the offset of the day typed, not of today.
    expect(isoOfWallClock('2026-07-01T12:00', 'Europe/London')).toBe('2026-07-01T11:00:00.000Z');
    expect(isoOfWallClock('2026-01-01T12:00', 'Europe/London')).toBe('2026-01-01T12:00:00.000Z');
    expect(isoOfWallClock('', 'Asia/Kolkata')).toBeUndefined();
    expect(isoOfWallClock('2026-03-05', 'Asia/Kolkata')).toBeUndefined();
  });

  it('writes the tenant zone to the minute, UTC beside for evidence, the UTC day too when it differs; never ISO or milliseconds', () => {
    expect(formatTime('2026-03-04T19:00:00.000Z', { utc: true })).toBe('5 Mar 2026, 00:30 IST (4 Mar 2026, 19:00 UTC)');
    expect(formatTime('2026-03-04T09:00:00.123Z', { utc: true })).toBe('4 Mar 2026, 14:30 IST (09:00 UTC)');
    expect(formatTime('2026-03-04T09:00:00.123Z')).toBe('4 Mar 2026, 14:30 IST');
    expect(formatTime('2026-03-04T09:00:00.123Z', { timeZone: 'Europe/London' })).toBe('4 Mar 2026, 09:00 GMT');
    // An unknown zone is not an error: the default's.
    expect(formatTime('2026-03-04T09:00:00.123Z', { timeZone: 'Mars/Olympus' })).toBe('4 Mar 2026, 14:30 IST');
    expect(formatDate('2026-03-04T19:00:00.000Z')).toBe('5 Mar 2026');
    expect(formatTime(null)).toBe('—');
  });

  it("writes a principal's mail in her language and the tenant's zone, with UTC", () => {
    const english = readableTime('2026-03-04T19:00:00.000Z', 'EN');
    expect(english).toBe('5 Mar 2026, 00:30 IST (4 Mar 2026, 19:00 UTC)');
    const tamil = readableTime('2026-03-04T19:00:00.000Z', 'TA');
    expect(tamil).toContain('00:30');
    expect(tamil).toContain('19:00 UTC');
    expect(tamil).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('is the only formatter: no browser app or server module formats a time on its own', () => {
    const root = join(import.meta.dirname, '..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : files(path);
        return /\.(ts|tsx)$/.test(name) ? [path] : [];
      });
    const own = [...files(join(root, 'shared')), ...files(join(root, 'web'))]
      .filter((path) => !path.endsWith(join('shared', 'time', 'format.ts')))
      .filter((path) => /Intl\.DateTimeFormat|toLocale(Date|Time)String\(|getTimezoneOffset|\.toUTCString\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(own).toEqual([]);
  });
});
