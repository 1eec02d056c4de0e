import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { writeTransaction, type NamedItem } from '../db/transact';
import { ConflictError, NotFoundError } from '../errors';
import { countAgainstPlan } from '../tenants/plan-limits';
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

/** Adds a user to an existing tenant, counting it against the team-member limit in the same transaction. */
export const insertUser = async (user: User): Promise<void> => {
  await writeTransaction([
    countAgainstPlan(user.tenantId, 'userCount', 'teamMembers', 'The tenant has reached its team-member limit'),
    ...userPutItems(user),
  ]);
};

export const getUser = async (tenantId: string, userId: string): Promise<User | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userKeys.user(tenantId, userId) }));
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
