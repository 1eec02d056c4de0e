import { GetCommand, PutCommand, UpdateCommand } from '../db/commands';
import { clock, nowIso } from '../clock';
import { secretConfig } from '../config';
import { randomToken, sha256Hex } from '../crypto/hash';
import { db, tableName } from '../db/client';
import { ContentionError } from '../db/errors';
import { writeTransaction } from '../db/transact';
import { UnauthorizedError } from '../errors';
import { newId } from '../ids';
import { sessionKeys } from '../sessions/keys';

interface RefreshTokenItem {
  tenantId: string;
  userId: string;
  familyId: string;
  state: 'ACTIVE' | 'ROTATED';
  createdAt: string;
  /** Epoch seconds; DynamoDB TTL removes the item after it, rotated ones included (they catch reuse until then). */
  expiresAt: number;
}

const expiresAtFromNow = (): number => Math.floor(clock.now().getTime() / 1000) + secretConfig.refreshTokenTtlSeconds;

const newTokenItem = (tenantId: string, userId: string, familyId: string) => {
  const token = `rt_${randomToken(32)}`;
  const item: RefreshTokenItem = { tenantId, userId, familyId, state: 'ACTIVE', createdAt: nowIso(), expiresAt: expiresAtFromNow() };
  return { token, put: { TableName: tableName(), Item: { ...sessionKeys.refreshToken(sha256Hex(token)), type: 'RefreshToken', ...item }, ConditionExpression: 'attribute_not_exists(PK)' } };
};

/** Starts a new token family (one login = one family). */
export const issueRefreshToken = async (tenantId: string, userId: string): Promise<string> => {
  const { token, put } = newTokenItem(tenantId, userId, newId());
  await db().send(new PutCommand(put));
  return token;
};

const revokeFamily = async (session: RefreshTokenItem): Promise<void> => {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: sessionKeys.family(session.tenantId, session.familyId),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now), userId = :user, #type = :type',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':now': nowIso(), ':user': session.userId, ':type': 'SessionFamily' },
    }),
  );
};

/**
 * Signing out: the presented token's whole family (this login and every token rotated from it)
 * is revoked, so neither it nor a copy of an earlier one can be refreshed again. An unknown,
 * expired or already revoked token is a no-op: signing out twice, or with a stale token, is not
 * an error, and the answer never tells whether a token existed.
 */
export const endSession = async (presented: string): Promise<void> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: sessionKeys.refreshToken(sha256Hex(presented)), ConsistentRead: true }));
  if (Item) await revokeFamily(Item as RefreshTokenItem);
};

class RefreshTokenReusedError extends UnauthorizedError {
  constructor() {
    super('Refresh token was already used; every session token of this login is now revoked');
  }
}

/**
 * Exchanges a refresh token for the next one of its family. The old token is marked ROTATED
 * (kept, not deleted) so a second use of it — a stolen copy, or a replay — is recognised and
 * revokes the whole family. Two concurrent uses of one token: exactly one wins, the other is reuse.
 */
export const rotateRefreshToken = async (presented: string): Promise<{ session: RefreshTokenItem; nextToken: string }> => {
  const key = sessionKeys.refreshToken(sha256Hex(presented));
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const session = Item as RefreshTokenItem | undefined;
  if (!session || session.expiresAt <= Math.floor(clock.now().getTime() / 1000)) {
    throw new UnauthorizedError('Refresh token is invalid or expired');
  }
  if (session.state === 'ROTATED') {
    await revokeFamily(session);
    throw new RefreshTokenReusedError();
  }
  const next = newTokenItem(session.tenantId, session.userId, session.familyId);
  try {
    await writeTransaction([
      {
        name: 'presented token',
        item: {
          Update: {
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET #state = :rotated, rotatedAt = :now',
            ConditionExpression: '#state = :active',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':rotated': 'ROTATED', ':active': 'ACTIVE', ':now': nowIso() },
          },
        },
        onConditionFailure: () => new RefreshTokenReusedError(),
      },
      { name: 'next token', item: { Put: next.put } },
      {
        name: 'token family',
        item: {
          ConditionCheck: {
            TableName: tableName(),
            Key: sessionKeys.family(session.tenantId, session.familyId),
            ConditionExpression: 'attribute_not_exists(revokedAt)',
          },
        },
        onConditionFailure: () => new UnauthorizedError('This session has been revoked'),
      },
    ]);
  } catch (error) {
    // Two uses of one token at the same moment are reuse too, even when DynamoDB cancels the loser for contention.
    if (error instanceof RefreshTokenReusedError || error instanceof ContentionError) {
      await revokeFamily(session);
      throw new RefreshTokenReusedError();
    }
    throw error;
  }
  return { session, nextToken: next.token };
};
