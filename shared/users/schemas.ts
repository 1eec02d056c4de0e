import * as z from 'zod/mini';
import { described } from '../described';
import { roles } from '../roles';

/* Built only where read (each schema an arrow called at once and annotated pure, as in notices/schemas.ts); the actor is a view, z.lazy. */

/** The one password rule: the operator CLI, tenant creation, invitations and set-password links. */
export const passwordSchema = /* @__PURE__ */ (() => z.string().check(z.minLength(10, 'at least 10 characters'), z.maxLength(200)))();
export const emailSchema = /* @__PURE__ */ (() => z.email().check(z.maxLength(254)))();

export const inviteUserBody = /* @__PURE__ */ (() => z.strictObject({
  email: emailSchema,
  role: z.enum(roles),
  password: described(z.optional(passwordSchema), 'Set it now and the user can sign in at once; leave it out to mail a set-password link (valid 7 days, single use)'),
}))();
export type InviteUserInput = z.output<typeof inviteUserBody>;

export const userIdParams = /* @__PURE__ */ (() => z.strictObject({ userId: z.uuid() }))();

/** Any token shape is looked up, so a mistyped link is the link's own 404, like withdrawal links. */
export const setPasswordBody = /* @__PURE__ */ (() => z.strictObject({
  token: described(z.string().check(z.minLength(1), z.maxLength(200)), 'The token from the set-password link'),
  password: passwordSchema,
}))();

export const teamMemberSchema = /* @__PURE__ */ z.lazy(() => z.object({
  userId: z.uuid(),
  email: z.string(),
  role: z.enum(roles),
  createdAt: z.iso.datetime(),
}));

/** A team member as the views name them (shared/users/actor.ts): email and role as they were then, or as they read now, said so. */
export const actorView = /* @__PURE__ */ z.lazy(() => described(
  z.object({ userId: z.string(), email: z.nullable(z.string()), role: z.string(), asRecordedThen: described(z.boolean(), 'false: read from the user record now (the entry was written before snapshots were kept); REMOVED when the user is gone') }),
  'Extension: who on the team acted, named',
));
