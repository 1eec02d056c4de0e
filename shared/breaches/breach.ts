import { deliveryConfig } from '../config';
import type { FilingStage } from './schemas';

/**
 * A personal data breach as the register keeps it, and what follows from it without storage:
 * both of Rule 7's clocks, what each filing still lacks, and the documents filed with the Board.
 */

export type BreachStatus = 'OPEN' | 'CLOSED';
export type AffectedScope = 'ALL' | 'NOTICES' | 'PURPOSES' | 'PRINCIPALS';
export type IntimationStatus = 'NOT_STARTED' | 'RUNNING' | 'DONE';

export interface Affected {
  scope: AffectedScope;
  noticeIds: string[];
  purposeIds: string[];
}

export interface Filing {
  filedAt: string;
  /** Frozen at filing: filed after `lateAfter`. */
  late: boolean;
  dueAt: string;
  lateAfter: string;
  documentId: string;
}

/**
 * How far the intimation got. A principal is reached when mailed, or when the tenant's systems
 * acknowledged the page of principals handed to them (a `breach.principals` webhook answered 2xx):
 * `viaTenant`. Until then those without a known email are `awaitingTenant`, not reached, and they
 * stay so when no webhook of the tenant is subscribed to `breach.principals`.
 */
export interface Progress {
  total: number;
  mailed: number;
  viaTenant: number;
  awaitingTenant: number;
  failed: number;
}

/**
 * The intimation of the affected principals. Each call starts a run (`runs` counts them); a run
 * resolves the affected principals page by page and intimates each page as one batch, and is
 * DONE once resolution reached the end and every batch it planned completed. Progress adds up
 * over runs: a principal reached once is never reached again.
 */
export interface IntimationState {
  status: IntimationStatus;
  runId: string | null;
  runs: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** The logged document holding the run's words (what every principal of the run was told). */
  textDocumentId: string | null;
  resolved: boolean;
  batchesPlanned: number;
  batchesDone: number;
  lastProgressAt: string | null;
}

export interface Breach {
  tenantId: string;
  breachId: string;
  title: string;
  status: BreachStatus;
  awareAt: string;
  occurredAt: string | null;
  nature: string;
  extent: string;
  location: string;
  likelyImpact: string;
  dataCategories: string[];
  /** Data map assets the breach touched (shared/data-map); absent on breaches recorded before the map. */
  assetIds?: string[];
  affected: Affected;
  /** Hashes listed for scope PRINCIPALS, in chunks of at most one batch each (`listedChunks`). */
  listedPrincipals: number;
  listedChunks: number;
  factsAndReasons: string | null;
  mitigationMeasures: string | null;
  causeFindings: string | null;
  remedialMeasures: string | null;
  extension: { grantedUntil: string; reference: string; at: string } | null;
  filings: Partial<Record<FilingStage, Filing>>;
  intimation: IntimationState;
  progress: Progress;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Bumped by every change; each change is conditional on the version it read. */
  version: number;
}

/** Who did something, as the timeline and the filed documents name them. */
export interface Actor {
  userId: string;
  role: string;
  email: string | null;
}

const hourMs = 60 * 60 * 1000;

/** Rule 7(2)(b): the detailed report is due 72 hours after the fiduciary became aware. */
export const detailedReportHours = 72;

const plusHours = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * hourMs).toISOString();

/** Both due times: the Board intimation "without delay" (due the moment of awareness), the report 72 h later or when the Board allowed. */
export const dueTimes = (breach: Pick<Breach, 'awareAt' | 'extension'>) => ({
  boardIntimationDueAt: breach.awareAt,
  detailedReportDueAt: breach.extension?.grantedUntil ?? plusHours(breach.awareAt, detailedReportHours),
});

const stageDue = (breach: Pick<Breach, 'awareAt' | 'extension'>, stage: FilingStage) => {
  const due = dueTimes(breach);
  return stage === 'INTIMATION'
    ? { dueAt: due.boardIntimationDueAt, lateAfter: plusHours(breach.awareAt, deliveryConfig.breachBoardIntimationLateHours) }
    : { dueAt: due.detailedReportDueAt, lateAfter: due.detailedReportDueAt };
};

/** Whether filing at `at` is late, and the times it was judged by: frozen into the filing. */
export const filingTimes = (breach: Pick<Breach, 'awareAt' | 'extension'>, stage: FilingStage, at: string) => {
  const { dueAt, lateAfter } = stageDue(breach, stage);
  return { dueAt, lateAfter, late: Date.parse(at) > Date.parse(lateAfter) };
};

/** One clock as the API shows it: once filed, its times and `late` are the filing's own. */
export const clockOf = (breach: Pick<Breach, 'awareAt' | 'extension' | 'filings'>, stage: FilingStage, now: Date) => {
  const filing = breach.filings[stage];
  if (filing) return { dueAt: filing.dueAt, lateAfter: filing.lateAfter, filedAt: filing.filedAt, late: filing.late, overdue: false, documentId: filing.documentId };
  const { dueAt, lateAfter } = stageDue(breach, stage);
  return { dueAt, lateAfter, filedAt: null, late: null, overdue: now.getTime() > Date.parse(lateAfter), documentId: null };
};

export const clocksOf = (breach: Breach, now: Date) => ({ boardIntimation: clockOf(breach, 'INTIMATION', now), detailedReport: clockOf(breach, 'DETAILED_REPORT', now) });

export const isOverdue = (breach: Breach, now: Date) => {
  const clocks = clocksOf(breach, now);
  return clocks.boardIntimation.overdue || clocks.detailedReport.overdue;
};

/** The item names a missing-items answer uses, with the Rule's numbering. */
const reportItems = {
  factsAndReasons: '(ii) the facts, circumstances and reasons of the breach',
  mitigationMeasures: '(iii) the measures implemented or proposed to mitigate the risk',
  causeFindings: '(iv) the findings regarding the person who caused the breach',
  remedialMeasures: '(v) the remedial measures taken to prevent recurrence',
} as const;

/** What filing `stage` still lacks, each item named with why; empty when it can be filed. */
export const missingItems = (breach: Breach, stage: FilingStage): Record<string, string> => {
  const missing: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const field of ['nature', 'extent', 'location', 'likelyImpact'] as const) {
    if (!breach[field]?.trim()) missing[field] = `(i) the ${field === 'likelyImpact' ? 'likely impact' : field} of the breach is missing`;
  }
  if (stage === 'INTIMATION') return missing;
  if (!breach.filings.INTIMATION) missing.boardIntimation = 'the Board intimation must be filed before the detailed report';
  if (!breach.occurredAt) missing.occurredAt = '(i) the updated description needs when the breach occurred';
  for (const [field, item] of Object.entries(reportItems) as [keyof typeof reportItems, string][]) {
    if (!breach[field]?.trim()) missing[field] = `${item} is missing`;
  }
  if (breach.intimation.status !== 'DONE') {
    missing.principalIntimation =
      breach.intimation.status === 'RUNNING'
        ? '(vi) the intimation of the affected principals is still running'
        : '(vi) the affected principals have not been intimated yet: notify them first';
  }
  return missing;
};

/** A data map asset as a breach names it: enough to say where, even after the map changes. */
export interface AssetRef {
  assetId: string;
  name: string;
  system: string;
  location: string;
}

/** Item (i): the breach's description as it stands, with the data map's assets it touched. */
const description = (breach: Breach, assets: readonly AssetRef[]) => ({
  nature: breach.nature,
  extent: breach.extent,
  timing: { occurredAt: breach.occurredAt, awareAt: breach.awareAt },
  location: breach.location,
  likelyImpact: breach.likelyImpact,
  dataCategories: breach.dataCategories,
  assets,
});

/**
 * What the Board is given at a stage, as plain JSON (it is hashed into the evidence log when
 * filed): the intimation's description (Rule 7(2)(a)), or the detailed report's items (i) to (vi).
 */
export const boardDocument = (breach: Breach, stage: FilingStage, fiduciary: { tenantId: string; name: string }, assets: readonly AssetRef[]) => {
  const common = { breachId: breach.breachId, fiduciary, title: breach.title, awareAt: breach.awareAt };
  if (stage === 'INTIMATION') {
    return {
      ...common,
      stage,
      description: description(breach, assets),
      affected: { ...breach.affected, listedPrincipals: breach.listedPrincipals },
    };
  }
  const intimation = breach.filings.INTIMATION;
  return {
    ...common,
    stage,
    items: {
      i: description(breach, assets),
      ii: breach.factsAndReasons,
      iii: breach.mitigationMeasures,
      iv: breach.causeFindings,
      v: breach.remedialMeasures,
      vi: {
        ...progressOf(breach.progress),
        runs: breach.intimation.runs,
        startedAt: breach.intimation.startedAt,
        finishedAt: breach.intimation.finishedAt,
        affected: { ...breach.affected, listedPrincipals: breach.listedPrincipals },
      },
    },
    boardIntimation: intimation ? { filedAt: intimation.filedAt, late: intimation.late, documentId: intimation.documentId } : null,
    extension: breach.extension,
  };
};

/**
 * The counters in their documented order (a stored map keeps no order). Breaches intimated before
 * acknowledgements were counted have no `awaitingTenant`: their `viaTenant` was counted as handed.
 */
export const progressOf = ({ total, mailed, viaTenant, awaitingTenant, failed }: Progress): Progress => ({ total, mailed, viaTenant, awaitingTenant: awaitingTenant ?? 0, failed });

/** Principals reached: mailed, or acknowledged by the tenant's systems. */
export const reachedOf = (progress: Progress): number => progress.mailed + progress.viaTenant;

/** How many principals the breach affects, as far as is known (docs/breaches.md). */
export const affectedCountOf = (breach: Breach): number | null => {
  if (breach.intimation.runs > 0) return breach.progress.total;
  return breach.affected.scope === 'PRINCIPALS' ? breach.listedPrincipals : null;
};

/** Whether the tenant's systems can be told of principals without an email: an active webhook subscribed to breach.principals. */
export interface Handoff {
  webhookSubscribed: boolean;
}

export const summaryView = (breach: Breach, now: Date, handoff: Handoff) => ({
  breachId: breach.breachId,
  title: breach.title,
  status: breach.status,
  awareAt: breach.awareAt,
  ...dueTimes(breach),
  clocks: clocksOf(breach, now),
  affectedCount: affectedCountOf(breach),
  intimation: {
    status: breach.intimation.status,
    runs: breach.intimation.runs,
    startedAt: breach.intimation.startedAt,
    finishedAt: breach.intimation.finishedAt,
    progress: progressOf(breach.progress),
    reached: reachedOf(progressOf(breach.progress)),
    handoff,
  },
  createdAt: breach.createdAt,
  updatedAt: breach.updatedAt,
});

export const detailView = (breach: Breach, timeline: unknown[], now: Date, assets: readonly AssetRef[], handoff: Handoff) => ({
  ...summaryView(breach, now, handoff),
  occurredAt: breach.occurredAt,
  nature: breach.nature,
  extent: breach.extent,
  location: breach.location,
  likelyImpact: breach.likelyImpact,
  dataCategories: breach.dataCategories,
  assets,
  affected: { ...breach.affected, listedPrincipals: breach.listedPrincipals },
  factsAndReasons: breach.factsAndReasons,
  mitigationMeasures: breach.mitigationMeasures,
  causeFindings: breach.causeFindings,
  remedialMeasures: breach.remedialMeasures,
  extension: breach.extension,
  closedAt: breach.closedAt,
  timeline,
});
