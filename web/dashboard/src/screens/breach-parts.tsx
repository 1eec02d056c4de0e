import type { DataOf } from '../api';
import { isoOfWallClock, wallClockOf, zoneName } from '../../../../shared/time/format';
import { timeZone } from '../session';
import { formatDateTime, formatNumber } from '../ui';

/** What the breach screens share: how a clock, the intimation's progress and a filed document read. */
export type BreachSummary = DataOf<'listBreaches'>[number];
export type Breach = DataOf<'getBreach'>;
type Clock = BreachSummary['clocks']['boardIntimation'];

const hourMs = 3_600_000;

/** `3 h 12 min`, `2 d 5 h`: how long, to the minute. */
export const span = (ms: number): string => {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const hours = Math.floor(minutes / 60);
  if (hours >= 48) return `${Math.floor(hours / 24)} d ${hours % 24} h`;
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
};

/**
 * A clock as words: filed (and whether late), or for the Board intimation, due "without delay",
 * the time since awareness; for the report, the time left or how late it is.
 */
export const clockText = (clock: Clock, stage: 'INTIMATION' | 'DETAILED_REPORT', now = Date.now()): string => {
  if (clock.filedAt) return `Filed ${formatDateTime(clock.filedAt)}${clock.late ? ', late' : ', in time'}`;
  const due = Date.parse(clock.dueAt);
  if (stage === 'INTIMATION') return `Due without delay: ${span(now - due)} since awareness${clock.overdue ? ', overdue' : ''}`;
  return now <= due ? `${span(due - now)} left (due ${formatDateTime(clock.dueAt)})` : `Late by ${span(now - due)} (was due ${formatDateTime(clock.dueAt)})`;
};

export const ClockBadge = ({ clock }: { clock: Clock }) =>
  clock.filedAt ? <span class={`badge ${clock.late ? 'overdue' : 'active'}`}>{clock.late ? 'Filed late' : 'Filed'}</span> : clock.overdue ? <span class="badge overdue">Overdue</span> : null;

/** Who was told and who was not: handed to your systems counts only once they acknowledged it. */
export const progressText = (progress: Breach['intimation']['progress']) =>
  `${formatNumber(progress.mailed + progress.viaTenant)} of ${formatNumber(progress.total)} reached: ${formatNumber(progress.mailed)} by email, ${formatNumber(progress.viaTenant)} by your systems. ` +
  `Not reached: ${formatNumber(progress.awaitingTenant + progress.failed)} (${formatNumber(progress.awaitingTenant)} without an email, not acknowledged by your systems; ${formatNumber(progress.failed)} whose contact could not be read).`;

/** The breach's fields as the form and the timeline name them (never a field name split into words). */
export const describedFields = [
  ['nature', 'Nature: what happened', 4000],
  ['extent', 'Extent: how much and whose data', 4000],
  ['location', 'Location: systems, sites, processors', 1000],
  ['likelyImpact', 'Likely impact on the principals', 4000],
] as const;

export const reportFields = [
  ['factsAndReasons', '(ii) Facts, circumstances and reasons'],
  ['mitigationMeasures', '(iii) Measures to mitigate the risk'],
  ['causeFindings', '(iv) Findings on who caused it'],
  ['remedialMeasures', '(v) Remedial measures against recurrence'],
] as const;

const otherFields: Record<string, string> = {
  title: 'Title',
  awareAt: 'When you became aware',
  occurredAt: 'When it occurred',
  dataCategories: 'Data categories',
  affected: 'Who is affected',
  assetIds: 'Data map assets',
};

/** A changed field as the timeline names it. */
export const fieldLabel = (name: string): string =>
  ([...describedFields, ...reportFields].find(([field]) => field === name)?.[1] ?? otherFields[name] ?? 'Another detail').replace(/:.*$/, '');

/**
 * A `datetime-local` value as meant in the tenant's zone (not the browser's: the form says which),
 * as ISO UTC, or undefined when empty. 00:30 IST on the 5th is 19:00 UTC on the 4th, and reads
 * back as 00:30 IST on the 5th.
 */
export const isoOfLocal = (value: string): string | undefined => isoOfWallClock(value, timeZone.value);

/** An ISO time as a `datetime-local` value in the tenant's zone. */
export const localOfIso = (iso: string | null | undefined): string => wallClockOf(iso, timeZone.value);

/** How a form names the zone its times are typed in. */
export const zoneLabel = () => `${zoneName(timeZone.value)}, ${timeZone.value}`;

export const hoursFrom = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * hourMs).toISOString();
