import { actorWords } from '../../../../shared/users/actor-words';

/**
 * Who did something, as every timeline names them: email and role as they were then (the id on
 * hover), or as the team list reads now when the entry kept no snapshot, said so; the principal
 * and the service by those words.
 */
export const Actor = ({ actor, by }: { actor: { userId: string; email: string | null; role: string; asRecordedThen?: boolean } | null; by?: string | null }) => {
  if (actor) return <span title={`user ${actor.userId}`}>{actorWords(actor)}</span>;
  if (by === 'principal') return <>the principal</>;
  return <>the service</>;
};
