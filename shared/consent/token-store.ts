import { GetCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import type { NamedItem } from '../db/transact';
import { AppError, ConflictError } from '../errors';
import { consentKeys } from './keys';

/** A single-use withdrawal link as stored: only the SHA-256 of the token is the key. */
export interface TokenItem {
  tenantId: string;
  dataPrincipalHash: string;
  noticeId: string;
  principalEmail: string | null;
  createdAt: string;
  /** Epoch seconds; the table's TTL removes the item after it. */
  expiresAt: number;
  consumedAt?: string;
}

/**
 * Why a withdrawal link cannot be used, in `error.details.reason` of the spec's own codes: an
 * unknown link is 404 NOT_FOUND, a used or expired one 409 CONFLICT (a state conflict), so the
 * portal page can tell the three apart without codes the spec does not have.
 */
export type LinkProblem = 'NOT_FOUND' | 'USED' | 'EXPIRED';

const linkMessages: Record<LinkProblem, string> = {
  NOT_FOUND: 'This withdrawal link is not valid',
  USED: 'This withdrawal link was already used',
  EXPIRED: 'This withdrawal link has expired; ask for a new one',
};

export const linkError = (reason: LinkProblem, details: Record<string, unknown> = {}): AppError =>
  new AppError(reason === 'NOT_FOUND' ? 'NOT_FOUND' : 'CONFLICT', linkMessages[reason], { details: { reason, ...details } });

export const tokenUsedError = () => linkError('USED');

/** The token as an item of the transaction that also writes what carries its link. */
export const withdrawalTokenPut = (tokenHash: string, token: TokenItem): NamedItem => ({
  name: 'withdrawal token',
  item: { Put: { TableName: tableName(), Item: { ...consentKeys.withdrawalToken(tokenHash), type: 'WithdrawalToken', ...token }, ConditionExpression: 'attribute_not_exists(PK)' } },
  // 256 random bits do not collide; a collision would be a bug worth a loud failure.
  onConditionFailure: () => new ConflictError('Withdrawal token collision'),
});

export const getWithdrawalToken = async (tokenHash: string): Promise<TokenItem | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.withdrawalToken(tokenHash), ConsistentRead: true }));
  return Item as TokenItem | undefined;
};

/** Spends the token inside the withdrawal's own transaction, so exactly one redemption wins. */
export const redeemTokenItem = (tokenHash: string, at: string): NamedItem => ({
  name: 'withdrawal token',
  item: {
    Update: {
      TableName: tableName(),
      Key: consentKeys.withdrawalToken(tokenHash),
      UpdateExpression: 'SET consumedAt = :now',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(consumedAt)',
      ExpressionAttributeValues: { ':now': at },
    },
  },
  onConditionFailure: tokenUsedError,
});
