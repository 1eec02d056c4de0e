import { nowEpochSeconds, nowIso } from '../clock';
import { engineConfig } from '../config';
import { randomToken, sha256Hex } from '../crypto/hash';
import { hashPassword } from '../crypto/password';
import type { NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { newId } from '../ids';
import { mailPut } from '../mail/outbox';
import type { Role } from '../roles';
import { getTenant } from '../tenants/store';
import { normaliseEmail } from './keys';
import type { InviteUserInput } from './schemas';
import {
  deleteUser,
  getPasswordToken,
  insertUser,
  listUsers,
  passwordLinkExpired,
  passwordLinkNotFound,
  passwordLinkUsed,
  passwordTokenPut,
  requireUser,
  setPasswordWithToken,
} from './store';
import { teamMember, type User } from './user';

/** A set-password link lives as long as a withdrawal link: 7 days, single use. */
const setPasswordLinkSeconds = 7 * 86_400;

/**
 * The dashboard page a set-password link opens. The token rides in the fragment, which browsers
 * never send to a server, so it stays out of CDN access logs and Referer headers.
 */
const setPasswordUrl = (token: string): string =>
  `${(engineConfig.dashboardBaseUrl ?? '/dashboard').replace(/\/$/, '')}/set-password#token=${token}`;

/** A new user of a tenant; without a password it can sign in only once its set-password link is used. */
export const newUser = async (tenantId: string, input: { email: string; role: Role; password?: string | undefined }): Promise<User> => ({
  userId: newId(),
  tenantId,
  email: normaliseEmail(input.email),
  role: input.role,
  ...(input.password === undefined ? {} : { passwordHash: await hashPassword(input.password) }),
  createdAt: nowIso(),
});

/** The tenant's users, oldest first (ids are random, so the order is the creation time's). */
export const listTeam = async (tenantId: string) =>
  (await listUsers(tenantId))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId))
    .map(teamMember);

/** The link's token and its mail, written in the user's own transaction: a link exists exactly when its user does. */
const setPasswordLinkItems = async (user: User): Promise<NamedItem[]> => {
  const token = randomToken(32);
  const now = nowEpochSeconds();
  const expiresAt = new Date((now + setPasswordLinkSeconds) * 1000).toISOString();
  const organisation = (await getTenant(user.tenantId))?.name ?? 'your organisation';
  const text = [
    `You have been added to ${organisation}'s consent dashboard as ${user.role}.`,
    '',
    `Choose your password here (the link works once, until ${expiresAt}):`,
    setPasswordUrl(token),
    '',
    `Then sign in with ${user.email}. If you did not expect this invitation, ignore this mail.`,
  ].join('\n');
  return [
    passwordTokenPut(sha256Hex(token), { tenantId: user.tenantId, userId: user.userId, createdAt: nowIso(), expiresAt: now + setPasswordLinkSeconds }),
    { name: 'invitation mail', item: mailPut(user.tenantId, { to: user.email, subject: `Your access to ${organisation}'s consent dashboard`, text }) },
  ];
};

/**
 * Adds a user within the plan's team-member limit (403 PLAN_LIMIT_REACHED) under an email no
 * tenant uses yet (409 CONFLICT). With a password the user signs in at once; without one a
 * single-use set-password link is mailed through the outbox.
 */
export const inviteUser = async (tenantId: string, input: InviteUserInput) => {
  const user = await newUser(tenantId, input);
  await insertUser(user, user.passwordHash === undefined ? await setPasswordLinkItems(user) : []);
  return teamMember(user);
};

/**
 * Removes another user of the remover's tenant (404 for an unknown or another tenant's id).
 * Removing oneself is refused, so a tenant can never remove its last SUPER_ADMIN (the store
 * checks the remover still is one, in the same transaction). The removed user's refresh tokens
 * stop working at once (a refresh needs the user); an access token already issued is refused at
 * once by every state change, team route and evidence read (shared/roles.ts currentRoleChecked)
 * and lives out its ACCESS_TOKEN_TTL_SECONDS for everyday reads.
 */
export const removeUser = async (remover: { tenantId: string; userId: string }, userId: string) => {
  if (userId === remover.userId) {
    throw new ConflictError('You cannot remove your own account; another SUPER_ADMIN of your organisation can');
  }
  const user = await requireUser(remover.tenantId, userId);
  await deleteUser(user, remover.userId);
  return teamMember(user);
};

/** Sets an invited user's password through the mailed link: unknown 404, expired 410, used 409. */
export const setPasswordByLink = async (token: string, password: string) => {
  const tokenHash = sha256Hex(token);
  const link = await getPasswordToken(tokenHash);
  if (!link) throw passwordLinkNotFound();
  if (link.usedAt) throw passwordLinkUsed();
  if (link.expiresAt <= nowEpochSeconds()) throw passwordLinkExpired();
  await setPasswordWithToken(tokenHash, link, await hashPassword(password), nowIso());
  return teamMember(await requireUser(link.tenantId, link.userId));
};
