import type { DataOf } from '../api';
import { formatDate } from '../ui';
import { requestTypeNames } from '../../../../shared/rights/request';

export type RightsRequest = DataOf<'getRightsRequest'>;
export type RequestType = RightsRequest['type'];
export type RequestStatus = RightsRequest['status'];

export const typeNames: Record<RequestType, string> = requestTypeNames;

export const statusNames: Record<RequestStatus, string> = {
  UNVERIFIED: 'Unverified',
  SUBMITTED: 'Submitted',
  IN_PROGRESS: 'In progress',
  RESOLVED: 'Resolved',
  EXPIRED: 'Expired',
};

export const outcomeNames = { FULFILLED: 'Fulfilled', PARTIALLY_FULFILLED: 'Partially fulfilled', REJECTED: 'Rejected' } as const;

export const channelNames: Record<RightsRequest['channel'], string> = { WEB: 'Request form', EMAIL: 'Email', PHONE: 'Phone', LETTER: 'Letter', IN_PERSON: 'In person', OTHER: 'Other' };

export const StatusBadge = ({ status }: { status: RequestStatus }) => (
  <span class={`badge ${status === 'RESOLVED' ? 'active' : status === 'EXPIRED' ? 'withdrawn' : 'partial'}`}>{statusNames[status]}</span>
);

/** The due date with what it means now: days left, or overdue. */
export const Due = ({ request }: { request: Pick<RightsRequest, 'dueAt' | 'daysLeft' | 'overdue'> }) =>
  request.dueAt ? (
    <>
      {formatDate(request.dueAt)}
      {request.overdue ? <span class="badge overdue">Overdue</span> : request.daysLeft !== null ? <span class="muted"> ({request.daysLeft} days left)</span> : null}
    </>
  ) : (
    <>—</>
  );
