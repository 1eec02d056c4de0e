import { dayMs } from '../clock';
import type { ActorSnapshot } from '../users/actor-words';

/** The rights of a data principal under the DPDP Act: s.11 access, s.12 correction, completion, updating and erasure, s.13 grievance, s.14 nomination. */
export const requestTypes = ['ACCESS', 'CORRECTION', 'COMPLETION', 'UPDATING', 'ERASURE', 'GRIEVANCE', 'NOMINATION'] as const;
export type RequestType = (typeof requestTypes)[number];

/** Each request type as a DPO reads it (the dashboard and the access summary document). */
export const requestTypeNames: Record<RequestType, string> = {
  ACCESS: 'Access',
  CORRECTION: 'Correction',
  COMPLETION: 'Completion',
  UPDATING: 'Updating',
  ERASURE: 'Erasure',
  GRIEVANCE: 'Grievance',
  NOMINATION: 'Nomination',
};

export const requestStatuses = ['UNVERIFIED', 'SUBMITTED', 'IN_PROGRESS', 'RESOLVED', 'EXPIRED'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** How a request reached the tenant: WEB is the public request form; the others are logged by the team. */
export const loggedChannels = ['EMAIL', 'PHONE', 'LETTER', 'IN_PERSON', 'OTHER'] as const;
export const requestChannels = ['WEB', ...loggedChannels] as const;
export type RequestChannel = (typeof requestChannels)[number];

export const outcomes = ['FULFILLED', 'PARTIALLY_FULFILLED', 'REJECTED'] as const;
export type Outcome = (typeof outcomes)[number];

export const assetStates = ['PENDING', 'DONE', 'RETAINED'] as const;
export type AssetState = (typeof assetStates)[number];

/** The s.12 requests: each asset holding the principal's data is worked through (done, or retained with the reason). */
export const checklistTypes: readonly RequestType[] = ['ERASURE', 'CORRECTION', 'COMPLETION', 'UPDATING'];
export const hasChecklist = (type: RequestType): boolean => checklistTypes.includes(type);

export interface Nominee {
  name: string;
  email: string;
  relationship: string;
}

/** An asset holding the principal's data when the request was submitted (a copy: the data map may change later). */
export interface RequestAsset {
  assetId: string;
  name: string;
  system: string;
  /** null for requests without a checklist (access, grievance, nomination). */
  state: AssetState | null;
  note: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
  /** Who changed it, as they were then (absent before snapshots were kept). */
  updatedByActor?: ActorSnapshot;
}

export interface TimelineEntry {
  at: string;
  status: RequestStatus;
  /** `principal`, `user:<userId>` or `system` (expiry). */
  by: string;
  /** A team member's email and role as they were when they acted (absent before snapshots were kept: shared/users/actor.ts). */
  actor?: ActorSnapshot;
}

/** The next thing the due sweep does for a request: expire it unconfirmed, remind the DPO, or say it is overdue. */
export type DueStage = 'EXPIRY' | 'REMINDER' | 'OVERDUE';

export interface RightsRequest {
  tenantId: string;
  /** UUIDv7: the tenant's requests list in time order. */
  requestId: string;
  /** Not `type`: that attribute names each item's kind in the single table. */
  requestType: RequestType;
  status: RequestStatus;
  channel: RequestChannel;
  principalHash: string;
  /** Where the principal's mails go; never shown by any route, event or log entry. */
  principalEmail: string | null;
  /** The language of the principal's mails and link page (the request form's). */
  language: string;
  /** What the principal asked, in their words: shown to them on their request's page. */
  details: string;
  /** Logged requests: the team's own note (who took it, how), never shown to the principal; absent on requests from the form. */
  teamNote?: string | null;
  nominee: Nominee | null;
  createdAt: string;
  /** UNVERIFIED only: when an unconfirmed request expires. */
  confirmBy: string | null;
  submittedAt: string | null;
  dueAt: string | null;
  outcome: Outcome | null;
  response: string | null;
  resolvedAt: string | null;
  timeline: TimelineEntry[];
  assets: RequestAsset[];
  /** The team member who logged it (requests taken by email, phone, letter or in person). */
  loggedBy: string | null;
  /** SHA-256 of the principal's links (a second one is mailed with the answer). */
  tokenHashes: string[];
  /** ERASURE fulfilled: the withdrawal of the principal's consent. */
  withdrawalId: string | null;
  /** GRIEVANCE resolved: the signed closure receipt. */
  closureReceipt: string | null;
  submissionDocumentId: string | null;
  resolutionDocumentId: string | null;
  dueStage: DueStage | null;
  /** Bumped by every change; every change is conditional on the version read. */
  version: number;
}

export interface RightsSettings {
  grievanceResponseDays: number;
  requestResponseDays: number;
  identifiersRequired: string[];
}

export const defaultSettings: RightsSettings = { grievanceResponseDays: 30, requestResponseDays: 30, identifiersRequired: ['email'] };

/** An unconfirmed request expires after a day; the DPO is reminded a week before the due date. */
export const confirmWindowMs = dayMs;
export const reminderLeadMs = 7 * dayMs;
/** The principal's link shows the answer for 90 days after the resolution. */
export const answerKeptMs = 90 * dayMs;

export const isOpen = (status: RequestStatus): boolean => status === 'SUBMITTED' || status === 'IN_PROGRESS';

export const dueAtFor = (type: RequestType, submittedAt: Date, settings: RightsSettings): string =>
  new Date(submittedAt.getTime() + (type === 'GRIEVANCE' ? settings.grievanceResponseDays : settings.requestResponseDays) * dayMs).toISOString();

/**
 * The due sweep's first work on a submitted request: the reminder a week before the due date, or,
 * when the whole period is a week or less (the submission mail says as much), the overdue notice.
 */
export const firstDueStage = (submittedAt: string, dueAt: string): DueStage =>
  Date.parse(dueAt) - reminderLeadMs > Date.parse(submittedAt) ? 'REMINDER' : 'OVERDUE';

/** When the due sweep acts on the request next (its place in the due index), or null when it has nothing to do. */
export const dueWorkAt = (request: Pick<RightsRequest, 'dueStage' | 'confirmBy' | 'dueAt'>): string | null => {
  if (request.dueStage === 'EXPIRY') return request.confirmBy;
  if (!request.dueAt) return null;
  if (request.dueStage === 'REMINDER') return new Date(Date.parse(request.dueAt) - reminderLeadMs).toISOString();
  if (request.dueStage === 'OVERDUE') return request.dueAt;
  return null;
};

/** Whole days left until the due date (negative once overdue), for open requests. */
export const daysLeft = (request: Pick<RightsRequest, 'status' | 'dueAt'>, now: Date): number | null =>
  request.dueAt && isOpen(request.status) ? Math.ceil((Date.parse(request.dueAt) - now.getTime()) / dayMs) : null;

export const isOverdue = (request: Pick<RightsRequest, 'status' | 'dueAt'>, now: Date): boolean =>
  !!request.dueAt && isOpen(request.status) && Date.parse(request.dueAt) < now.getTime();

/** An UNVERIFIED request past its confirmation window is EXPIRED, whether or not the sweep got to it yet. */
export const effectiveStatus = (request: Pick<RightsRequest, 'status' | 'confirmBy'>, now: Date): RequestStatus =>
  request.status === 'UNVERIFIED' && request.confirmBy && Date.parse(request.confirmBy) <= now.getTime() ? 'EXPIRED' : request.status;
