import * as z from 'zod/mini';

/**
 * ISO 8601 durations (a purpose's retention period). zod's own pattern decides what is a duration
 * (ISO 8601-1: no negative or fractional components but seconds); this reads the components it
 * matched and adds them to an instant with the calendar (a month from 31 January is the last day
 * of February, as Temporal does), so `P3Y` from a 29 February is 28 February three years on.
 * Pure: the dashboard shows retention with it.
 */
export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const durationPattern = z.regexes.duration;

const component = (value: string | undefined) => (value === undefined ? 0 : Number(value.slice(0, -1).replace(',', '.')));

/** The components of a duration zod's pattern accepts, or undefined. */
export const parseDuration = (text: string): Duration | undefined => {
  const match = durationPattern.exec(text);
  if (!match) return undefined;
  const [, weeks, years, months, days, , hours, minutes, seconds] = match;
  return { years: component(years), months: component(months), weeks: component(weeks), days: component(days), hours: component(hours), minutes: component(minutes), seconds: component(seconds) };
};

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

/** `at` plus the duration: calendar years and months first (day clamped to the month's end), then days and time. */
export const addDuration = (at: Date, value: Duration): Date => {
  const monthIndex = at.getUTCFullYear() * 12 + at.getUTCMonth() + value.years * 12 + value.months;
  const [year, month] = [Math.floor(monthIndex / 12), monthIndex % 12];
  const day = Math.min(at.getUTCDate(), daysInMonth(year, month));
  const moved = Date.UTC(year, month, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds());
  const rest = (((value.weeks * 7 + value.days) * 24 + value.hours) * 60 + value.minutes) * 60_000 + Math.round(value.seconds * 1000);
  return new Date(moved + rest);
};

/** The end of `period` from `from`, ISO 8601; the period is one the schema accepted. */
export const periodEnd = (from: string | Date, period: string): Date => addDuration(new Date(from), parseDuration(period)!);

/**
 * Whether `value` can reach past `limit` from some start: tried from every day of a four-year
 * leap cycle, so `P1096D` is longer than `P3Y` (it is from some dates) and `P36M` is not.
 */
export const longerThan = (value: Duration, limit: Duration): boolean => {
  const start = Date.UTC(2024, 0, 1);
  for (let day = 0; day < 1461; day += 1) {
    const from = new Date(start + day * 86_400_000);
    if (addDuration(from, value).getTime() > addDuration(from, limit).getTime()) return true;
  }
  return false;
};

const minimum = parseDuration('PT1M')!;
/** Past a century a period keeps nothing shorter than the law would; it also keeps the arithmetic within Date's range. */
const maximum = parseDuration('P100Y')!;

const tooLong = (value: Duration) => !Number.isFinite(addDuration(new Date(0), value).getTime()) || longerThan(value, maximum);

/** Shorter than a minute from every start (no calendar part, under 60 seconds of time). */
const underMinimum = (value: Duration) => value.years === 0 && value.months === 0 && addDuration(new Date(0), value).getTime() < addDuration(new Date(0), minimum).getTime();

export const durationSchema = /* @__PURE__ */ (() =>
  z.string().check(
    z.maxLength(40),
    z.regex(durationPattern, 'an ISO 8601 duration, such as P3Y, P6M, P90D or PT1M'),
    z.refine((text) => {
      const value = parseDuration(text);
      return value === undefined || !underMinimum(value);
    }, 'at least PT1M'),
    z.refine((text) => {
      const value = parseDuration(text);
      return value === undefined || !tooLong(value);
    }, 'at most P100Y'),
  ))();
