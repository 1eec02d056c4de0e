/**
 * Retention keys.
 *
 * Access patterns:
 * - a principal's last activity ... UpdateItem/GetItem PK=ACTIVITY#<tid>#<identifierHash> SK=ACTIVITY
 *   (a partition per principal: one principal's traffic never makes a key hot, and no key is
 *   shared by two principals; the sweep reads it by key, never by Scan)
 * Writes: at most one successful write per principal per UTC day, whatever the traffic: the
 * update is conditional on the stored activity being from an earlier day (activity.ts). A refused
 * conditional write still costs 1 WCU, so each instance remembers the day it wrote (or saw) for a
 * principal and does not try again that day: a day of a principal's traffic costs 1 WCU per
 * instance that sees her, at most, and 1 WCU in the common case (bench: activity).
 */
export const retentionKeys = {
  activity: (tenantId: string, identifierHash: string) => ({ PK: `ACTIVITY#${tenantId}#${identifierHash}`, SK: 'ACTIVITY' }),
};

export const activityItemType = 'PrincipalActivity';
