import * as z from 'zod';
import { roles } from '../roles';

/** The one password rule: the operator CLI, tenant creation, invitations and set-password links. */
export const passwordSchema = z.string().min(10, 'at least 10 characters').max(200);
export const emailSchema = z.email().max(254);

export const inviteUserBody = z.strictObject({
  email: emailSchema,
  role: z.enum(roles),
  password: passwordSchema.optional().describe('Set it now and the user can sign in at once; leave it out to mail a set-password link (valid 7 days, single use)'),
});
export type InviteUserInput = z.output<typeof inviteUserBody>;

export const userIdParams = z.strictObject({ userId: z.uuid() });

/** Any token shape is looked up, so a mistyped link is the link's own 404, like withdrawal links. */
export const setPasswordBody = z.strictObject({
  token: z.string().min(1).max(200).describe('The token from the set-password link'),
  password: passwordSchema,
});

export const teamMemberSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  role: z.enum(roles),
  createdAt: z.iso.datetime(),
});
