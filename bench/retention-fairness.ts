import { documentsOf } from '../shared/evidence/documents';
import { retentionDocumentTypes } from '../shared/retention/documents';
import { retentionKeys } from '../shared/retention/keys';
import type { AroundTenant } from '../shared/retention/sweeper';
import { combine, measure, type Work } from './meter';

/**
 * One tenant's large day never delays another tenant's notices (issue 34): a small tenant due the
 * same day, its due-index entries sorting after the large tenant's whole backlog in every
 * partition, swept by the same passes. Its part of each pass is timed and counted apart (the
 * sweep's `around`), so the large tenant's figures stay its own; where its notices and expiries
 * went out is read back from its logged documents, whose `at` is the pass's clock.
 */
export interface FairnessPhase {
  /** The pass (from 1) in which the last of the small tenant's principals was noticed (or lapsed). */
  pass: number;
  /** The first pass whose clock had reached their due time: `pass` must be this one. */
  firstDuePass: number;
  /** Seconds from the phase's start to the end of the small tenant's part of that pass. */
  seconds: number;
  /** Passes in which the large tenant moved principals, and the phase's passes (the last finding no one). */
  largePasses: number;
  passes: number;
  /** The small tenant's moves (notice: one each; expiry: her expiry, then leaving the index). */
  moved: number;
  /** The small tenant's own work, not in the large tenant's phase figures. */
  work: Work;
}

export interface FairnessResult {
  principals: number;
  /**
   * Of the partitions holding the small tenant's entries, the fewest and most of the large
   * tenant's entries ahead of them there, beside what a pass takes of one tenant in a partition
   * (`shardShare`): `behindBacklog` when even the fewest is more, the worst case the read has to reach past.
   */
  aheadPerPartition: { min: number; max: number; share: number };
  behindBacklog: boolean;
  notices: FairnessPhase;
  expiries: FairnessPhase;
}

interface TenantPart {
  tenantId: string;
  pass: number;
  moved: number;
  endSeconds: number;
}

/** Watches one phase's passes: their clocks in order, and each tenant's part; the small tenant's work counted apart. */
export class PassWatch {
  private readonly nows: string[] = [];
  private readonly parts: TenantPart[] = [];
  private readonly smallWork: Work[] = [];
  private readonly started = performance.now();

  constructor(private readonly small: string) {}

  readonly around: AroundTenant = async (tenantId, now, sweep) => {
    const at = now.toISOString();
    if (!this.nows.includes(at)) this.nows.push(at);
    const pass = this.nows.indexOf(at) + 1;
    let moved: number;
    if (tenantId === this.small) {
      const { result, work } = await measure(sweep);
      this.smallWork.push(work);
      moved = result;
    } else {
      moved = await sweep();
    }
    this.parts.push({ tenantId, pass, moved, endSeconds: (performance.now() - this.started) / 1000 });
    return moved;
  };

  /** The pass whose clock was `at` (a logged document's), from 1. */
  passAt(at: string): number {
    const pass = this.nows.indexOf(at) + 1;
    if (pass === 0) throw new Error(`no pass ran at ${at}`);
    return pass;
  }

  /** The first pass whose clock had reached `dueAt`. */
  firstPassFrom(dueAt: string): number {
    const pass = this.nows.findIndex((now) => now >= dueAt) + 1;
    if (pass === 0) throw new Error(`no pass reached ${dueAt}`);
    return pass;
  }

  phase(pass: number, firstDuePass: number, passes: number, large: string): FairnessPhase {
    const mine = this.parts.filter((part) => part.tenantId === this.small);
    const ending = mine.find((part) => part.pass === pass);
    return {
      pass,
      firstDuePass,
      seconds: ending?.endSeconds ?? Number.NaN,
      largePasses: this.parts.filter((part) => part.tenantId === large && part.moved > 0).length,
      passes,
      moved: mine.reduce((sum, part) => sum + part.moved, 0),
      work: combine(this.smallWork),
    };
  }

  /** The small tenant's moves so far, to leave them out of the large tenant's count. */
  smallMoved(): number {
    return this.parts.filter((part) => part.tenantId === this.small).reduce((sum, part) => sum + part.moved, 0);
  }
}

/** How deep the large tenant's entries lie ahead of the small tenant's, partition by partition (every large entry sorts first). */
export const aheadOf = (large: { tenantId: string; hashes: readonly string[] }, small: { tenantId: string; hashes: readonly string[] }, share: number) => {
  const partitionOf = (tenantId: string, hash: string) => retentionKeys.due(tenantId, hash, '').GSI2PK;
  const counts = new Map<string, number>();
  for (const hash of large.hashes) counts.set(partitionOf(large.tenantId, hash), (counts.get(partitionOf(large.tenantId, hash)) ?? 0) + 1);
  const ahead = [...new Set(small.hashes.map((hash) => partitionOf(small.tenantId, hash)))].map((partition) => counts.get(partition) ?? 0);
  const min = Math.min(...ahead);
  return { aheadPerPartition: { min, max: Math.max(...ahead), share }, behindBacklog: min > share };
};

/** Her logged notices: one each, else the count is wrong. Answers the latest's clock and the latest due time they name. */
export const smallNotices = async (tenantId: string, hashes: readonly string[]): Promise<{ latestAt: string; latestDueAt: string }> => {
  const notices = (await Promise.all(hashes.map((hash) => documentsOf(tenantId, `retention:${hash}`)))).flat().filter((document) => document.documentType === retentionDocumentTypes.notice);
  if (notices.length !== hashes.length) throw new Error(`small tenant: ${notices.length} notices logged for ${hashes.length} principals`);
  const dueAts = notices.map((document) => (JSON.parse(document.canonical) as { content: { dueAt: string } }).content.dueAt);
  return { latestAt: notices.map((document) => document.at).sort().at(-1)!, latestDueAt: dueAts.sort().at(-1)! };
};

/** Her erasure runs: every principal lapsed in one of them. Answers the latest run's clock. */
export const smallRuns = async (tenantId: string, principals: number): Promise<string> => {
  const runs = (await documentsOf(tenantId, 'retention-runs')).map((document) => ({ at: document.at, principals: (JSON.parse(document.canonical) as { content: { principals: number } }).content.principals }));
  const lapsed = runs.reduce((sum, run) => sum + run.principals, 0);
  if (lapsed !== principals) throw new Error(`small tenant: runs list ${lapsed} of ${principals} principals`);
  return runs.map((run) => run.at).sort().at(-1)!;
};

/** Throws unless the small tenant's phase ended in the first pass that reached its due time. */
export const requireOnTime = (name: string, phase: FairnessPhase): void => {
  if (phase.pass !== phase.firstDuePass) {
    throw new Error(`small tenant's ${name} went out in pass ${phase.pass} (${phase.seconds.toFixed(1)} s), not in pass ${phase.firstDuePass}, the first that reached their due time`);
  }
};
