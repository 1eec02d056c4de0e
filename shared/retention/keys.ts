/**
 * Retention keys.
 *
 * Access patterns:
 * - a principal's last activity ... UpdateItem/GetItem PK=ACTIVITY#<tid>#<identifierHash> SK=ACTIVITY
 *   (a partition per principal: one principal's traffic never makes a key hot, and no key is
 *   shared by two principals; the sweep reads it by key, never by Scan)
 * - principals to check, by time . Query GSI2 RETDUE#<0..15>, SK <nextAt>#<tid>#<hash> <= now (every tenant's; sparse:
 *   (the due index)                an entry leaves when nothing is due, and an activity puts a principal back at the time
 *                                  of the write; 16 partitions by the principal's hash, each in time order)
 * Writes: at most one successful write per principal per UTC day, whatever the traffic: the
 * update is conditional on the stored activity being from an earlier day (activity.ts). A refused
 * conditional write still costs 1 WCU, so each instance remembers the day it wrote (or saw) for a
 * principal and does not try again that day: a day of a principal's traffic costs 1 WCU per
 * instance that sees her, at most, and 1 WCU in the common case (bench: activity).
 */
export const retentionKeys = {
  activity: (tenantId: string, identifierHash: string) => ({ PK: `ACTIVITY#${tenantId}#${identifierHash}`, SK: 'ACTIVITY' }),
  /** The principal's place in the due index: a shard of her, sorted by the time of her next check. */
  due: (tenantId: string, identifierHash: string, nextAt: string) => ({
    GSI2PK: retentionKeys.duePartition(shardOf(identifierHash)),
    GSI2SK: `${nextAt}#${tenantId}#${identifierHash}`,
  }),
  duePartition: (shard: number) => `RETDUE#${shard}`,
};

/**
 * The due index is spread over this many partitions (by the principal's hash), each sorted by
 * time, so a day on which many principals fall due never writes one key hot: 100,000 moves in a
 * day are ~6,250 per partition, and a burst of 10,000 a second ~625 per partition per second.
 */
export const dueShards = 16;
const shardOf = (identifierHash: string) => Number.parseInt(identifierHash.slice(0, 2), 16) % dueShards;

export const activityItemType = 'PrincipalActivity';
