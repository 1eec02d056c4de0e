import { UpdateCommand } from '../db/commands';
import { clock } from '../clock';
import { db, tableName } from '../db/client';
import { isConditionFailure } from '../db/errors';
import { queryAll } from '../db/query';
import { scheduleAttempt } from './attempt';
import { deliveryOf } from './delivery-item';
import { dueShards, webhookKeys } from './keys';

/**
 * How late an attempt must be before the sweeper re-queues it. Queued attempts normally run within
 * seconds of their time; one this late lost its message (the local SQS emulator is in memory and
 * a restart empties it; in AWS a message can also be lost to an expired retention). The margin
 * keeps the sweeper from racing a message that is merely on its way.
 */
export const sweepMarginMs = 2 * 60_000;

/**
 * Re-queues every open delivery (PENDING or RETRYING) whose next attempt is overdue by the
 * margin. Safe against double sends: the worker records each attempt conditionally on the attempt
 * number, so of a swept message and a surviving original only one attempt runs and records.
 * Each swept delivery's due time is pushed one margin ahead first (conditional on its attempt
 * count), so a worker that is down is not flooded with a copy per sweep. Returns how many it queued.
 */
export const sweepOverdueDeliveries = async (marginMs = sweepMarginMs): Promise<number> => {
  const now = clock.now().getTime();
  const cutoff = new Date(now - marginMs).toISOString();
  let queued = 0;
  for (let shard = 0; shard < dueShards; shard += 1) {
    const overdue = await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
      ExpressionAttributeValues: { ':pk': webhookKeys.duePartition(shard), ':cutoff': cutoff },
    });
    for (const item of overdue) {
      const key = { PK: String(item.PK), SK: String(item.SK) };
      const { attempts, deliveryId } = deliveryOf(item);
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET GSI2SK = :due',
            ConditionExpression: 'attempts = :attempts AND attribute_exists(GSI2PK)',
            ExpressionAttributeValues: { ':due': webhookKeys.due(deliveryId, new Date(now + marginMs).toISOString()).GSI2SK, ':attempts': attempts },
          }),
        );
      } catch (error) {
        // An attempt ran or the delivery closed meanwhile: nothing is lost, nothing to sweep.
        if (isConditionFailure(error)) continue;
        throw error;
      }
      await scheduleAttempt({ key, attempt: attempts + 1, notBefore: 0 });
      queued += 1;
    }
  }
  return queued;
};
