import type { Purpose } from '../notices/notice';
import { periodEnd } from './duration';
import type { RetentionSettings } from './settings';
import { rulesCommencement, thirdSchedulePeriod } from './third-schedule';

/** What the due computation reads of a principal's records. */
export interface RecordFacts {
  createdAt: string;
  consentGiven: Record<string, boolean>;
  withdrawnPurposes: string[];
  isWithdrawn: boolean;
  withdrawnAt: string | null;
  expiredPurposes?: string[];
}

export interface PurposeDue {
  purposeId: string;
  dueAt: string;
}

const latest = (values: (string | null | undefined)[]): string | undefined => values.filter((value): value is string => typeof value === 'string').sort().at(-1);

/**
 * When each purpose's data falls due for erasure for one principal (pure; docs/retention.md):
 * - LAST_ACTIVITY: her last activity plus the period;
 * - CONSENT: her latest record granting the purpose plus the period;
 * - WITHDRAWAL: her latest withdrawal of it, or her latest record refusing it, plus the period.
 * A Third Schedule tenant's purpose without an exception is also due three years after her last
 * activity or the Rules' commencement, whichever is later (rule 8(1)), if that comes first.
 * Purposes already expired for every record, without a retention, or that she never decided on are not due.
 */
export const purposeDues = (input: {
  purposes: readonly Pick<Purpose, 'purposeId' | 'retention' | 'thirdScheduleException'>[];
  records: readonly RecordFacts[];
  lastActivityAt: string | null;
  settings: RetentionSettings;
}): PurposeDue[] => {
  const { records, settings } = input;
  const activity = latest([input.lastActivityAt, ...records.map((record) => record.createdAt)]);
  const dues: PurposeDue[] = [];
  for (const purpose of input.purposes) {
    const decided = records.filter((record) => purpose.purposeId in record.consentGiven && !(record.expiredPurposes ?? []).includes(purpose.purposeId));
    if (decided.length === 0) continue;
    const candidates: Date[] = [];
    const retention = purpose.retention;
    if (retention) {
      const start =
        retention.from === 'LAST_ACTIVITY'
          ? activity
          : retention.from === 'CONSENT'
            ? latest(decided.filter((record) => record.consentGiven[purpose.purposeId] === true).map((record) => record.createdAt))
            : latest(
                decided.flatMap((record) => [
                  record.consentGiven[purpose.purposeId] === false ? record.createdAt : null,
                  record.isWithdrawn || record.withdrawnPurposes.includes(purpose.purposeId) ? record.withdrawnAt : null,
                ]),
              );
      if (start) candidates.push(periodEnd(start, retention.period));
    }
    if (settings.thirdScheduleClass && !purpose.thirdScheduleException && activity) {
      candidates.push(periodEnd(activity > rulesCommencement ? activity : rulesCommencement, thirdSchedulePeriod));
    }
    if (candidates.length === 0) continue;
    const dueAt = new Date(Math.min(...candidates.map((candidate) => candidate.getTime()))).toISOString();
    dues.push({ purposeId: purpose.purposeId, dueAt });
  }
  return dues.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.purposeId.localeCompare(b.purposeId));
};

export type SweepStep =
  | { kind: 'none' }
  | { kind: 'wait'; nextAt: string; cancelled: boolean }
  | { kind: 'notice'; dueAt: string; purposeIds: string[] }
  | { kind: 'expire'; dueAt: string; purposeIds: string[] };

/**
 * What the sweep does now for one principal, given her purposes' dues and her schedule as stored:
 * with notice (noticeHours > 0) she is told once, no later than noticeHours before the due time,
 * and nothing is erased earlier than noticeHours after the notice (rule 8(2)); an activity that
 * moved the due time on after a notice cancels that erasure (a new notice comes before the new one).
 */
export const sweepStep = (input: { dues: readonly PurposeDue[]; noticeHours: number; noticeSentAt: string | null; noticedDueAt: string | null; now: Date }): SweepStep => {
  const [first] = input.dues;
  if (!first) return { kind: 'none' };
  const hoursMs = input.noticeHours * 3_600_000;
  const now = input.now.getTime();
  const noticed = input.noticeSentAt !== null && input.noticedDueAt !== null;
  // A notice stands for the due time it announced; activity since moved that time later: the erasure is cancelled.
  const cancelled = noticed && first.dueAt > input.noticedDueAt!;
  const standing = noticed && !cancelled;
  const dueAt = standing ? Math.max(new Date(first.dueAt).getTime(), new Date(input.noticeSentAt!).getTime() + hoursMs) : new Date(first.dueAt).getTime();
  const window = dueAt - hoursMs;
  const duePurposes = (until: number) => input.dues.filter((due) => new Date(due.dueAt).getTime() <= until).map((due) => due.purposeId);
  if (hoursMs > 0 && !standing) {
    if (now < window) return { kind: 'wait', nextAt: new Date(window).toISOString(), cancelled };
    return { kind: 'notice', dueAt: new Date(Math.max(dueAt, now + hoursMs)).toISOString(), purposeIds: duePurposes(Math.max(dueAt, now + hoursMs)) };
  }
  if (now < dueAt) return { kind: 'wait', nextAt: new Date(dueAt).toISOString(), cancelled };
  return { kind: 'expire', dueAt: new Date(dueAt).toISOString(), purposeIds: duePurposes(Math.max(now, dueAt)) };
};
