import { userIdOf, type ActorSnapshot } from './actor-words';
import { getUser } from './store';

/**
 * Who on the tenant's team did something, as timelines and evidence views name them: their email
 * and role as they were when they acted, with their id for the JSON and for hover.
 *
 * "As they were then" is a snapshot taken at write time (`actorSnapshot`), kept beside the entry:
 * a user whose email or role changes later, or who is removed, is still named as they were. Entries
 * written before snapshots existed, and evidence whose hashed form can name only an id (a consent
 * record's `attributedBy`, a withdrawal's `actor`), fall back to the user's record as it reads now,
 * and say so (`asRecordedThen: false`); a user since removed is named as such.
 */
export interface ActorView extends ActorSnapshot {
  /** false: read from the user's record now, not kept from when they acted (the record may have changed since). */
  asRecordedThen: boolean;
}

/** The user as their record reads at this moment (email and role): taken when they act, and kept with what they did. */
export const actorSnapshot = async (tenantId: string, userId: string): Promise<ActorSnapshot> => {
  const user = await getUser(tenantId, userId);
  return { userId, email: user?.email ?? null, role: user?.role ?? 'REMOVED' };
};

/**
 * The actor of a stored entry, as a view: its snapshot when it has one; else, for a `user:<id>`
 * reference, the user as read now (`current`, from currentActors); else null (a principal, the system).
 */
export const actorOfEntry = (entry: { by?: string | null; actor?: ActorSnapshot | undefined }, current: ReadonlyMap<string, ActorView>): ActorView | null => {
  if (entry.actor) return { ...entry.actor, asRecordedThen: true };
  const userId = userIdOf(entry.by);
  return userId ? (current.get(userId) ?? { userId, email: null, role: 'REMOVED', asRecordedThen: false }) : null;
};


/** Users named only by id, as their records read now (each read once); a removed user reads with no email or role. */
export const currentActors = async (tenantId: string, userIds: Iterable<string>): Promise<Map<string, ActorView>> => {
  const unique = [...new Set(userIds)];
  const users = await Promise.all(unique.map((userId) => getUser(tenantId, userId)));
  return new Map(unique.map((userId, index) => [userId, { userId, email: users[index]?.email ?? null, role: users[index]?.role ?? 'REMOVED', asRecordedThen: false }]));
};
