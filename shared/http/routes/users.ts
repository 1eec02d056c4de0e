import * as z from 'zod/mini';
import { inviteUserBody, setPasswordBody, teamMemberSchema, userIdParams } from '../../users/schemas';
import type { RouteDefinition } from '../route';

/**
 * The Team screen (extensions: the spec names no user endpoints), served by the auth function:
 * users and their login guards are what login reads, and set-password is a sign-in step.
 */
export const userRoutes = {
  listUsers: {
    method: 'GET',
    path: '/api/v1/users',
    group: 'auth',
    auth: { kind: 'bearer', access: 'admin' },
    summary: "List the tenant's users",
    description: 'Extension. Oldest first; never a password hash.',
    tags: ['Team'],
    response: { status: 200, description: 'Users, oldest first', data: z.array(teamMemberSchema) },
  },
  inviteUser: {
    method: 'POST',
    path: '/api/v1/users',
    group: 'auth',
    auth: { kind: 'bearer', access: 'admin' },
    summary: 'Add a user to the team',
    description:
      "Extension. With `password` the user can sign in at once. Without it the address gets a single-use set-password link, valid 7 days (POST /api/v1/auth/set-password). Emails are unique across all tenants (409 CONFLICT when taken); the plan's team-member limit gives 403 PLAN_LIMIT_REACHED.",
    tags: ['Team'],
    request: { body: inviteUserBody },
    response: { status: 201, description: 'The new user', data: teamMemberSchema },
    errors: ['CONFLICT', 'PLAN_LIMIT_REACHED'],
  },
  removeUser: {
    method: 'DELETE',
    path: '/api/v1/users/:userId',
    group: 'auth',
    auth: { kind: 'bearer', access: 'admin' },
    summary: 'Remove a user from the team',
    description:
      "Extension. Frees the email and the user's place in the team-member limit. Refresh tokens stop working at once, and so does the user's access token on every state change, team route and evidence read (401 TOKEN_INVALID); for everyday reads it stays valid until it expires (15 minutes). Removing yourself is 409 CONFLICT, so the last SUPER_ADMIN is never removed; an unknown or another tenant's user is 404.",
    tags: ['Team'],
    request: { params: userIdParams },
    response: { status: 200, description: 'The removed user', data: teamMemberSchema },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  setPassword: {
    method: 'POST',
    path: '/api/v1/auth/set-password',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: "Set an invited user's password with the mailed link",
    description:
      'Extension. The token from the set-password link, once. Unknown token: 404 SET_PASSWORD_TOKEN_NOT_FOUND; expired: 410 SET_PASSWORD_TOKEN_EXPIRED; already used: 409 SET_PASSWORD_TOKEN_USED. Then sign in with POST /api/v1/auth/login.',
    tags: ['Authentication'],
    request: { body: setPasswordBody },
    response: { status: 200, description: 'The user whose password was set', data: teamMemberSchema },
    errors: ['SET_PASSWORD_TOKEN_NOT_FOUND', 'SET_PASSWORD_TOKEN_EXPIRED', 'SET_PASSWORD_TOKEN_USED', 'RATE_LIMIT'],
  },
} as const satisfies Record<string, RouteDefinition>;
