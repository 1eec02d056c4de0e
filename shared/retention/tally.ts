import { addDayCounts, type DayCounts } from './store';

/**
 * What one sweep pass did to a tenant's days, added up in memory and written once per day touched
 * at the end of the pass (GET /retention/summary): a day on which 10,000 principals fall due is a
 * few counter writes a pass, not 10,000 on one key. Counted only for steps whose transaction
 * landed; a crash between a step and the pass's end loses that step's count (the counters are a
 * summary; the upcoming list and the evidence log are exact).
 */
export class DayTally {
  private readonly days = new Map<string, Partial<DayCounts>>();

  add(at: string, name: keyof DayCounts, delta = 1): void {
    const day = at.slice(0, 10);
    const counts = this.days.get(day) ?? {};
    counts[name] = (counts[name] ?? 0) + delta;
    this.days.set(day, counts);
  }

  /** Moves a principal's live erasure from one due time to another (either may be absent). */
  move(from: string | null, to: string | null): void {
    if (from === to) return;
    if (from) this.add(from, 'due', -1);
    if (to) this.add(to, 'due', 1);
  }

  async write(tenantId: string): Promise<void> {
    await Promise.all([...this.days].map(([day, deltas]) => addDayCounts(tenantId, day, deltas)));
  }
}
