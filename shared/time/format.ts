/**
 * The one way the service writes a time for a person: the dashboard, the principal's pages, the
 * mails and the printable documents all call this module, so a time reads the same everywhere.
 * Times are stored and sent as ISO 8601 UTC; people read them in the tenant's time zone (India's
 * by default), to the minute, with the zone named, and with UTC beside where the text is evidence
 * (a filing, a pack, a breach's timing) and may be read against logs kept in UTC.
 *
 * A pure module (Intl only): the browser apps bundle it as the server does.
 */

/** The tenant's time zone when it has not chosen one: India's (IST, UTC+05:30, no daylight saving). */
export const defaultTimeZone = 'Asia/Kolkata';

export interface TimeStyle {
  /** An IANA zone; the default when absent or unknown to Intl. */
  timeZone?: string | null | undefined;
  /** A BCP 47 locale; en-IN when absent or unknown to Intl. */
  locale?: string | undefined;
  /** Add the same instant in UTC after it, in brackets (evidence). */
  utc?: boolean;
}

const cache = new Map<string, Intl.DateTimeFormat>();

/** Formatters are costly to make: one per locale, zone and shape, kept. */
const formatter = (locale: string, timeZone: string, shape: 'time' | 'date' | 'clock' | 'parts'): Intl.DateTimeFormat => {
  const key = `${locale}|${timeZone}|${shape}`;
  let made = cache.get(key);
  if (!made) {
    const date = { day: 'numeric', month: 'short', year: 'numeric' } as const;
    const clock = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
    const options: Intl.DateTimeFormatOptions =
      shape === 'date'
        ? { ...date, timeZone }
        : shape === 'clock'
          ? { ...clock, timeZone, timeZoneName: 'short' }
          : shape === 'parts'
            ? { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone }
            : { ...date, ...clock, timeZone, timeZoneName: 'short' };
    made = new Intl.DateTimeFormat(locale, options);
    cache.set(key, made);
  }
  return made;
};

const supportedZone = (zone: string | null | undefined): string => {
  if (!zone) return defaultTimeZone;
  try {
    formatter('en-IN', zone, 'time');
    return zone;
  } catch {
    return defaultTimeZone;
  }
};

const supportedLocale = (locale: string | undefined): string => {
  if (!locale) return 'en-IN';
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0 ? locale : 'en-IN';
  } catch {
    return 'en-IN';
  }
};

/** Whether the zone is one Intl knows (what a tenant's setting must be). */
export const isTimeZone = (zone: string): boolean => {
  try {
    formatter('en-IN', zone, 'time');
    return true;
  } catch {
    return false;
  }
};

const instantOf = (iso: string): Date | undefined => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? undefined : at;
};

/** The calendar day of an instant in a zone, as YYYY-MM-DD (to tell whether UTC falls on another day). */
const dayIn = (at: Date, timeZone: string): string => {
  const parts = Object.fromEntries(formatter('en-GB', timeZone, 'parts').formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
};

/**
 * "12 Mar 2026, 19:35 IST", and with `utc` "12 Mar 2026, 19:35 IST (14:05 UTC)" (the UTC date
 * written too when it is another day). An empty value reads "—"; a value that is no time is
 * returned as it was.
 */
export const formatTime = (iso: string | null | undefined, style: TimeStyle = {}): string => {
  if (!iso) return '—';
  const at = instantOf(iso);
  if (!at) return iso;
  const timeZone = supportedZone(style.timeZone);
  const locale = supportedLocale(style.locale);
  const local = formatter(locale, timeZone, 'time').format(at);
  if (!style.utc || timeZone === 'UTC' || timeZone === 'Etc/UTC') return local;
  const sameDay = dayIn(at, timeZone) === dayIn(at, 'UTC');
  return `${local} (${formatter(locale, 'UTC', sameDay ? 'clock' : 'time').format(at)})`;
};

/** "12 Mar 2026": the day in the tenant's zone (a due date, a date of birth of a record). */
export const formatDate = (iso: string | null | undefined, style: Omit<TimeStyle, 'utc'> = {}): string => {
  if (!iso) return '—';
  const at = instantOf(iso);
  return at ? formatter(supportedLocale(style.locale), supportedZone(style.timeZone), 'date').format(at) : iso;
};

/** The zone's offset from UTC at an instant, in minutes (330 for India). */
const offsetMinutes = (at: number, timeZone: string): number => {
  const parts = Object.fromEntries(formatter('en-GB', timeZone, 'parts').formatToParts(new Date(at)).map((part) => [part.type, Number(part.value)]));
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
};

/**
 * A wall-clock time typed in a form (`datetime-local`: "2026-03-12T09:30") as meant in the
 * tenant's zone, as ISO UTC; undefined when empty or not a time. Not the browser's zone: a DPO in
 * Delhi and one travelling mean the same instant by the same words.
 */
export const isoOfWallClock = (value: string, timeZone?: string | null): string | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const zone = supportedZone(timeZone);
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the guess, then at the corrected instant: right on both sides of a change of offset.
  let at = wall - offsetMinutes(wall, zone) * 60_000;
  at = wall - offsetMinutes(at, zone) * 60_000;
  return new Date(at).toISOString();
};

/** An ISO time as the wall clock of the tenant's zone, for a `datetime-local` field; '' when empty. */
export const wallClockOf = (iso: string | null | undefined, timeZone?: string | null): string => {
  if (!iso) return '';
  const at = instantOf(iso);
  if (!at) return '';
  const parts = Object.fromEntries(formatter('en-GB', supportedZone(timeZone), 'parts').formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour === '24' ? '00' : parts.hour}:${parts.minute}`;
};

/** The zone's short name as the formatter writes it ("IST"), for a form's label. */
export const zoneName = (timeZone?: string | null, locale?: string): string => {
  const zone = supportedZone(timeZone);
  return formatter(supportedLocale(locale), zone, 'clock').formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value ?? zone;
};
