/**
 * How a team member is named to people (timelines, documents, the dashboard): a pure module, so the
 * dashboard names them exactly as the service's documents do (shared/users/actor.ts reads them).
 */
export interface ActorSnapshot {
  userId: string;
  email: string | null;
  role: string;
}

/** The user id a stored `user:<id>` reference names, or undefined for a principal, the system, a key. */
export const userIdOf = (reference: string | null | undefined): string | undefined => (reference?.startsWith('user:') ? reference.slice('user:'.length) : undefined);

const roleNames: Record<string, string> = { SUPER_ADMIN: 'administrator', DPO: 'Data Protection Officer', ANALYST: 'analyst', VIEWER: 'viewer', REMOVED: 'since removed from the team' };

/** A role as people read it. */
export const roleWords = (role: string): string => roleNames[role] ?? role.toLowerCase().replace(/_/g, ' ');

/** "asha@example.in (Data Protection Officer)", with a note when read from the record now. */
export const actorWords = (actor: ActorSnapshot & { asRecordedThen?: boolean }): string =>
  `${actor.email ?? 'a former team member'} (${roleWords(actor.role)})${actor.asRecordedThen === false && actor.role !== 'REMOVED' ? ', as the team list reads now' : ''}`;
