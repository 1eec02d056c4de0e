import { GetCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { named, writeTransaction, type NamedItem } from '../db/transact';
import { AppError, ConflictError, NotFoundError } from '../errors';
import { countAgainstPlan, releasePlanCount } from '../tenants/plan-limits';
import { entityOf } from '../db/item';
import { queryPrefix } from '../db/query';
import { tenantPartition } from '../tenants/keys';
import { userKeys } from './keys';
import type { User } from './user';

/** The user item and its login guard: written together so an email can never log into two accounts. */
export const userPutItems = (user: User): NamedItem[] => [
  {
    name: 'user',
    item: {
      Put: {
        TableName: tableName(),
        Item: { ...userKeys.user(user.tenantId, user.userId), type: 'User', ...user },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    onConditionFailure: () => new ConflictError('User id collision; retry'),
  },
  {
    name: 'login guard',
    item: {
      Put: {
        TableName: tableName(),
        Item: { ...userKeys.login(user.email), type: 'Login', tenantId: user.tenantId, userId: user.userId },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    onConditionFailure: () => emailTaken(user.email),
  },
];

export const emailTaken = (email: string) => new ConflictError(`A user with email ${email} already exists`);

/**
 * Adds a user to an existing tenant, counting it against the team-member limit in the same
 * transaction, with anything that must exist exactly when the user does (a set-password link and its mail).
 */
export const insertUser = async (user: User, alongside: readonly NamedItem[] = []): Promise<void> => {
  await writeTransaction([
    countAgainstPlan(user.tenantId, 'userCount', 'teamMembers', 'The tenant has reached its team-member limit'),
    ...userPutItems(user),
    ...alongside,
  ]);
};

/** `consistent`: read the latest write (a removal or change of role a moment ago), at twice the cost. */
export const getUser = async (tenantId: string, userId: string, options: { consistent?: boolean } = {}): Promise<User | undefined> => {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: userKeys.user(tenantId, userId), ...(options.consistent ? { ConsistentRead: true } : {}) }),
  );
  return Item as User | undefined;
};

export const findLogin = async (email: string): Promise<{ tenantId: string; userId: string } | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userKeys.login(email) }));
  return Item ? { tenantId: String(Item.tenantId), userId: String(Item.userId) } : undefined;
};

export const requireUser = async (tenantId: string, userId: string): Promise<User> => {
  const user = await getUser(tenantId, userId);
  if (!user) throw new NotFoundError('User');
  return user;
};

/** A tenant's users (bounded by its team-member limit). */
export const listUsers = async (tenantId: string): Promise<User[]> =>
  (await queryPrefix(tenantPartition(tenantId), userKeys.usersPrefix)).map((item) => entityOf<User>(item));

export const lastSuperAdmin = () =>
  new ConflictError(
    'A tenant always keeps a SUPER_ADMIN: your own account is no longer a SUPER_ADMIN of this tenant, so this removal could leave none',
  );

/**
 * Removes a user, its login guard (the email becomes free) and its place in the team-member
 * count, in one transaction that also checks the remover is still a SUPER_ADMIN of the tenant.
 * The remover is never the removed user, so a committed removal always leaves at least the
 * remover: two SUPER_ADMINs removing each other at once, or one whose access token outlived its
 * own removal, cannot remove the last one (the transactions share both user items).
 */
export const deleteUser = async (user: User, removerId: string): Promise<void> => {
  await writeTransaction([
    {
      name: 'user',
      item: { Delete: { TableName: tableName(), Key: userKeys.user(user.tenantId, user.userId), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailure: () => new NotFoundError('User'),
    },
    // A guard of this user only: a missing guard does not keep the user from being removed.
    named('login guard', {
      Delete: {
        TableName: tableName(),
        Key: userKeys.login(user.email),
        ConditionExpression: 'attribute_not_exists(PK) OR userId = :userId',
        ExpressionAttributeValues: { ':userId': user.userId },
      },
    }),
    named('plan count', releasePlanCount(user.tenantId, 'userCount')),
    {
      name: 'remover',
      item: {
        ConditionCheck: {
          TableName: tableName(),
          Key: userKeys.user(user.tenantId, removerId),
          ConditionExpression: 'attribute_exists(PK) AND #role = :superAdmin',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':superAdmin': 'SUPER_ADMIN' },
        },
      },
      onConditionFailure: lastSuperAdmin,
    },
  ]);
};

/** An invited user's single-use set-password link as stored: only the SHA-256 of the token is the key. */
export interface PasswordTokenItem {
  tenantId: string;
  userId: string;
  createdAt: string;
  /** Epoch seconds; the table's TTL removes the item after it. */
  expiresAt: number;
  usedAt?: string;
}

export const passwordLinkNotFound = () => new AppError('SET_PASSWORD_TOKEN_NOT_FOUND', 'This set-password link is not valid');
export const passwordLinkExpired = () =>
  new AppError('SET_PASSWORD_TOKEN_EXPIRED', 'This set-password link has expired; ask a SUPER_ADMIN of your organisation to invite you again');
export const passwordLinkUsed = () => new AppError('SET_PASSWORD_TOKEN_USED', 'This set-password link was already used; sign in with your password');

export const passwordTokenPut = (tokenHash: string, token: PasswordTokenItem): NamedItem => ({
  name: 'set-password token',
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...userKeys.passwordToken(tokenHash), type: 'PasswordToken', ...token },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  // 256 random bits do not collide; a collision would be a bug worth a loud failure.
  onConditionFailure: () => new ConflictError('Set-password token collision'),
});

export const getPasswordToken = async (tokenHash: string): Promise<PasswordTokenItem | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userKeys.passwordToken(tokenHash), ConsistentRead: true }));
  return Item ? entityOf<PasswordTokenItem>(Item) : undefined;
};

/**
 * Spends the link and sets the password in one transaction: of two simultaneous uses exactly one
 * sets it (the other is USED), and a link of a user removed meanwhile sets nothing.
 */
export const setPasswordWithToken = async (tokenHash: string, token: PasswordTokenItem, passwordHash: string, at: string): Promise<void> => {
  await writeTransaction([
    {
      name: 'set-password token',
      item: {
        Update: {
          TableName: tableName(),
          Key: userKeys.passwordToken(tokenHash),
          UpdateExpression: 'SET usedAt = :now',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt)',
          ExpressionAttributeValues: { ':now': at },
        },
      },
      onConditionFailure: passwordLinkUsed,
    },
    {
      name: 'user',
      item: {
        Update: {
          TableName: tableName(),
          Key: userKeys.user(token.tenantId, token.userId),
          UpdateExpression: 'SET passwordHash = :hash',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':hash': passwordHash },
        },
      },
      onConditionFailure: passwordLinkNotFound,
    },
  ]);
};
