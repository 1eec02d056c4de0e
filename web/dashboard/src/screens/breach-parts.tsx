import type { DataOf } from '../api';
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

export const progressText = (progress: Breach['intimation']['progress']) =>
  `${formatNumber(progress.total)} reached: ${formatNumber(progress.mailed)} mailed, ${formatNumber(progress.viaTenant)} handed to your systems, ${formatNumber(progress.failed)} failed`;

/** A document field's name as words: `likelyImpact` → Likely impact, the report's items `ii` → (ii). */
const fieldName = (name: string) =>
  /^(i|ii|iii|iv|v|vi)$/.test(name) ? `(${name})` : name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (first) => first.toUpperCase());

/** Any JSON value of a filed or previewed document, as nested description lists. */
export const DocumentValue = ({ value }: { value: unknown }) => {
  if (value === null || value === undefined || value === '') return <em>not given</em>;
  if (Array.isArray(value)) return value.length === 0 ? <em>none</em> : <span>{value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(', ')}</span>;
  if (typeof value === 'object') {
    return (
      <dl class="pairs">
        {Object.entries(value as Record<string, unknown>).map(([name, inner]) => [
          <dt key={`${name}-t`}>{fieldName(name)}</dt>,
          <dd key={`${name}-d`}>
            <DocumentValue value={inner} />
          </dd>,
        ])}
      </dl>
    );
  }
  return <span class="wrap-text">{String(value)}</span>;
};

/** A `datetime-local` value (the browser's zone) as ISO UTC, or undefined when empty. */
export const isoOfLocal = (value: string): string | undefined => (value ? new Date(value).toISOString() : undefined);

/** An ISO time as a `datetime-local` value in the browser's zone. */
export const localOfIso = (iso: string | null | undefined): string => {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export const hoursFrom = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * hourMs).toISOString();
