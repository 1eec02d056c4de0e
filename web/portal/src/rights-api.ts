/**
 * The rights endpoints the pages call, by hand like api.ts (the page's build has no access to the
 * server's schemas): GET /rights/means/:slug, POST /rights/requests/public, and the request link's
 * GET /rights/requests/public/:token and POST …/confirm.
 */
export const requestTypes = ['ACCESS', 'CORRECTION', 'COMPLETION', 'UPDATING', 'ERASURE', 'GRIEVANCE', 'NOMINATION'] as const;
export type RequestType = (typeof requestTypes)[number];

export interface RightsMeans {
  tenant: { name: string; slug: string };
  rights: RequestType[];
  identifiersRequired: string[];
  requestResponseDays: number;
  grievanceResponseDays: number;
  dpoContact: string | null;
}

interface Named {
  purposeId: string;
  name: string;
}

export interface AccessSummary {
  generatedAt: string;
  dpoContact: string | null;
  records: { consentRecordId: string; noticeTitle: string; noticeVersion: number; language: string; givenAt: string; purposesGranted: Named[]; purposesWithdrawn: Named[]; withdrawnAt: string | null }[];
  purposes: (Named & { dataCategories: string[]; assets: { assetId: string; name: string; system: string; location: string; retentionDays: number | null }[] })[];
  sharedWith: { processorId: string; name: string; role: 'PROCESSOR' | 'FIDUCIARY'; country: string; dataCategories: string[] }[];
  nominees: { name: string; relationship: string; nominatedAt: string }[];
}

export interface PublicRequest {
  tenant: { name: string; slug: string };
  requestId: string;
  type: RequestType;
  status: 'UNVERIFIED' | 'SUBMITTED' | 'IN_PROGRESS' | 'RESOLVED' | 'EXPIRED';
  details: string;
  nominee: { name: string; relationship: string } | null;
  createdAt: string;
  confirmBy: string | null;
  submittedAt: string | null;
  dueAt: string | null;
  daysLeft: number | null;
  overdue: boolean;
  outcome: 'FULFILLED' | 'PARTIALLY_FULFILLED' | 'REJECTED' | null;
  response: string | null;
  resolvedAt: string | null;
  language: string;
  dpoContact: string | null;
  linkValidUntil: string | null;
  summary: AccessSummary | null;
  closure: { receipt: string } | null;
}
