import { clock } from '../clock';
import { inForce } from '../consent/record';
import { majorityDoneUpdate, recordsComingOfAge } from '../consent/store';
import { named, tryTransaction } from '../db/transact';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import { describeError, log } from '../log';
import { expireRequest } from './decisions';
import { dueRequests } from './store';

type Accept = (tenantId: string) => boolean;

/**
 * The children's scheduled work (a scheduled Lambda in AWS, a loop of the local workers), found
 * through sparse, sharded indexes (never a Scan): guardian requests whose 7 days passed unanswered
 * become GUARDIAN_EXPIRED, and children whose majority date came get consent.majority_reached.
 * Each step is one conditional transaction, so a step runs once however many sweeps run at once,
 * and one tenant's faulty item never holds the others up. `accept`: each test file sweeps its own tenants.
 */
export const sweepGuardianRequests = async (options: { accept?: Accept } = {}): Promise<number> => {
  const now = clock.now();
  let moved = 0;
  for (const request of await dueRequests(now.toISOString())) {
    if (options.accept && !options.accept(request.tenantId)) continue;
    try {
      if (await expireRequest(request, now)) moved += 1;
    } catch (error) {
      log.error('guardian request expiry failed', { tenantId: request.tenantId, requestId: request.requestId, ...describeError(error) });
    }
  }
  return moved;
};

/**
 * On the date the tenant gave, a child comes of age: the parent's consent was for the child, so
 * the tenant is told (consent.majority_reached) to ask the new adult for her own. Only a record in
 * force is announced; any other just leaves the index. The event id is the record's.
 */
export const sweepMajority = async (options: { accept?: Accept } = {}): Promise<number> => {
  const now = clock.now();
  let moved = 0;
  for (const record of await recordsComingOfAge(now.toISOString().slice(0, 10))) {
    if (options.accept && !options.accept(record.tenantId)) continue;
    try {
      const event = newEvent(
        record.tenantId,
        'consent.majority_reached',
        { consentRecordId: record.recordId, dataPrincipalHash: record.dataPrincipalHash, noticeId: record.noticeId, majorityAt: record.child?.majorityAt ?? now.toISOString().slice(0, 10) },
        { id: eventIdFor('consent.majority_reached', record.recordId), timestamp: now.toISOString() },
      );
      const items = [majorityDoneUpdate(record), ...(inForce(record) && !record.isWithdrawn ? [named('majority_reached event', outboxPut(event))] : [])];
      if ((await tryTransaction(items)) === 'ok') moved += 1;
    } catch (error) {
      log.error('majority sweep failed', { tenantId: record.tenantId, recordId: record.recordId, ...describeError(error) });
    }
  }
  return moved;
};

/** Both sweeps until neither finds more (the scheduled function's body). */
export const sweepChildren = async (options: { accept?: Accept } = {}): Promise<number> => {
  let moved = 0;
  for (let step = 1; step > 0; moved += step) step = (await sweepGuardianRequests(options)) + (await sweepMajority(options));
  return moved;
};
