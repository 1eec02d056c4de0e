import { GetCommand, QueryCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { dueInShards } from '../db/query';
import type { NamedItem } from '../db/transact';
import type { OnConditionFailure } from '../db/errors';
import { ConflictError } from '../errors';
import { dueShards, guardianKeys } from './keys';
import type { GuardianRequest } from './request';
import type { RequestStatus } from './schemas';

export const requestItemType = 'GuardianRequest';

/** The item of a request: its keys follow its status (listed by status; due only while PENDING). */
export const requestItem = (request: GuardianRequest): Record<string, unknown> => ({
  ...guardianKeys.request(request.requestId),
  ...guardianKeys.status(request.tenantId, request.status, request.createdAt, request.requestId),
  ...(request.status === 'PENDING' ? guardianKeys.due(request.tenantId, request.requestId, request.expiresAt) : {}),
  type: requestItemType,
  ...request,
});

const fields = ['requestId', 'tenantId', 'consentRecordId', 'principalStatus', 'dataPrincipalHash', 'noticeId', 'language', 'guardianHash', 'sealedGuardianEmail', 'attestation', 'methods', 'status', 'method', 'generation', 'tokenHash', 'createdAt', 'expiresAt', 'decidedAt', 'version'] as const;

export const requestOf = (item: Record<string, unknown>): GuardianRequest =>
  Object.fromEntries(fields.map((name) => [name, item[name] ?? null])) as unknown as GuardianRequest;

/** A new request, once: a retried transaction cannot replace one. */
export const requestPut = (request: GuardianRequest): NamedItem => ({
  name: 'guardian request',
  item: { Put: { TableName: tableName(), Item: requestItem(request), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailure: () => new ConflictError(`Guardian request ${request.requestId} already exists`),
});

/**
 * The request as it stands after a change, conditional on the version read (and, for a decision
 * by link, on the link's hash): of two decisions at once, or a decision and an expiry, one wins.
 */
export const requestReplace = (next: GuardianRequest, expected: { version: number; tokenHash?: string }, onConditionFailure: OnConditionFailure): NamedItem => ({
  name: 'guardian request',
  item: {
    Put: {
      TableName: tableName(),
      Item: requestItem(next),
      ConditionExpression: expected.tokenHash === undefined ? 'version = :version' : 'version = :version AND tokenHash = :tokenHash',
      ExpressionAttributeValues: { ':version': expected.version, ...(expected.tokenHash === undefined ? {} : { ':tokenHash': expected.tokenHash }) },
    },
  },
  onConditionFailure,
});

export const getRequest = async (requestId: string): Promise<GuardianRequest | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: guardianKeys.request(requestId), ConsistentRead: true }));
  return Item?.type === requestItemType ? requestOf(Item) : undefined;
};

/** One page of a tenant's requests in one status, newest first. */
export const queryRequests = async (tenantId: string, status: RequestStatus, limit: number, startKey: Record<string, unknown> | undefined) => {
  const { Items = [], LastEvaluatedKey } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': guardianKeys.statusPartition(tenantId, status) },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { requests: Items.map(requestOf), lastKey: LastEvaluatedKey };
};

/** PENDING requests whose link expired by `now`, every tenant's, up to `limit` per shard (the sweep runs again). */
export const dueRequests = async (now: string, limit = 100): Promise<GuardianRequest[]> =>
  (await dueInShards(dueShards, guardianKeys.duePartition, now, limit)).map(requestOf);
