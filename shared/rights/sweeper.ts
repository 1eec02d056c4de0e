import { clock } from '../clock';
import { tryTransaction, type NamedItem } from '../db/transact';
import { describeError, log } from '../log';
import { getTenant } from '../tenants/store';
import { dpoContactOf } from '../notices/dpo-contact';
import { dpoMail } from './mails';
import { isOpen, type RightsRequest } from './request';
import { dueRequests, requestReplace } from './store';

/**
 * The due sweep (a scheduled Lambda in AWS, a loop of the local workers): the requests whose due
 * work has come, found through the sparse, sharded due index (never a Scan). Each step is one
 * transaction over the version read, so a mail goes once however many sweeps run at once:
 * - EXPIRY: an UNVERIFIED request not confirmed within the day becomes EXPIRED;
 * - REMINDER: the DPO is mailed a week before the due date (straight to OVERDUE when the sweep
 *   is late past the due date itself);
 * - OVERDUE: the DPO is mailed once the due date has passed, and the request leaves the index.
 * A request resolved meanwhile left the index with its resolution.
 */
const stepOf = async (request: RightsRequest, now: Date): Promise<{ next: RightsRequest; mails: NamedItem[] } | undefined> => {
  const at = now.toISOString();
  const version = request.version + 1;
  if (request.dueStage === 'EXPIRY') {
    if (request.status !== 'UNVERIFIED') return { next: { ...request, dueStage: null, version }, mails: [] };
    return { next: { ...request, status: 'EXPIRED', dueStage: null, timeline: [...request.timeline, { at, status: 'EXPIRED', by: 'system' }], version }, mails: [] };
  }
  if (!isOpen(request.status) || !request.dueAt) return { next: { ...request, dueStage: null, version }, mails: [] };
  const tenant = await getTenant(request.tenantId);
  const contact = tenant ? await dpoContactOf(tenant) : null;
  const overdue = Date.parse(request.dueAt) <= now.getTime();
  if (request.dueStage === 'REMINDER' && !overdue) return { next: { ...request, dueStage: 'OVERDUE', version }, mails: dpoMail(request, { contact, timeZone: tenant?.timeZone }, 'REMINDER') };
  if (overdue) return { next: { ...request, dueStage: null, version }, mails: dpoMail(request, { contact, timeZone: tenant?.timeZone }, 'OVERDUE') };
  return undefined;
};

/** Runs the due work of every tenant (or those `accept` takes: each test file sweeps its own). Returns how many requests it moved on. */
export const sweepRightsDue = async (options: { accept?: (tenantId: string) => boolean } = {}): Promise<number> => {
  const now = clock.now();
  let moved = 0;
  for (const request of await dueRequests(now.toISOString())) {
    if (options.accept && !options.accept(request.tenantId)) continue;
    try {
      const step = await stepOf(request, now);
      // A step that lost to a confirmation, a resolution or another sweep did nothing: the next sweep sees the new state.
      if (step && (await tryTransaction([requestReplace(step.next, request.version), ...step.mails])) === 'ok') moved += 1;
    } catch (error) {
      // One tenant's faulty request never holds up the others; it is tried again next sweep.
      log.error('rights due sweep failed for a request', { tenantId: request.tenantId, requestId: request.requestId, ...describeError(error) });
    }
  }
  return moved;
};
