import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { checkedEntityOf, entityOf, type RequiredShape } from '../db/item';
import { queryAll, queryPrefix } from '../db/query';
import type { NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import { tenantPartition } from '../tenants/keys';
import { dueShards, phaseOf, rightsKeys, rightsRequestItemType, type Phase } from './keys';
import { defaultSettings, dueWorkAt, type RightsRequest, type RightsSettings } from './request';

const requestShape: RequiredShape = { requestId: 'string', requestType: 'string', status: 'string', principalHash: 'string', createdAt: 'string', timeline: 'array', assets: 'array', version: 'number' };
export const requestOf = (item: Record<string, unknown>): RightsRequest => {
  const { dueStage: _stage, ...request } = checkedEntityOf<RightsRequest & { dueStage?: unknown }>(item, requestShape, 'Rights request', 'requestId');
  return { ...request, dueStage: (item.dueStage as RightsRequest['dueStage']) ?? null };
};

/** Requests of a listing or a sweep: a corrupt item (logged by checkedEntityOf) is left out, never failing the rest. */
const soundRequests = (items: Record<string, unknown>[]): RightsRequest[] =>
  items.flatMap((item) => {
    try {
      return [requestOf(item)];
    } catch {
      return [];
    }
  });

/**
 * The request as one item, its index keys derived from its state: the listing phase (GSI1) and,
 * while the due sweep has something to do for it, the sharded due index (GSI2).
 */
const requestItem = (request: RightsRequest) => {
  const { dueStage, ...fields } = request;
  const dueAt = dueWorkAt(request);
  return {
    ...rightsKeys.request(request.tenantId, request.requestId),
    ...rightsKeys.phase(request.tenantId, phaseOf(request.status), request.requestId),
    ...(dueStage && dueAt ? rightsKeys.due(request.tenantId, request.requestId, dueAt, dueStage) : {}),
    type: rightsRequestItemType,
    ...fields,
  };
};

export const requestChangedError = () => new ConflictError('The request was changed by another request; reload and retry');

/** A new request (its id is new: a retried transaction cannot write it twice). */
export const requestInsert = (request: RightsRequest): NamedItem => ({
  name: 'request',
  item: { Put: { TableName: tableName(), Item: requestItem(request), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailure: requestChangedError,
});

/**
 * The request's next state, written only over the version that was read: of two changes racing
 * (two resolves, a resolve and an asset update, the sweep and a confirmation) exactly one lands.
 */
export const requestReplace = (next: RightsRequest, previousVersion: number): NamedItem => ({
  name: 'request',
  item: {
    Put: {
      TableName: tableName(),
      Item: requestItem(next),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': previousVersion },
    },
  },
  onConditionFailure: requestChangedError,
});

/** The erasure's withdrawal, linked once it is committed (its id is made inside the withdrawal). */
export const linkWithdrawal = async (tenantId: string, requestId: string, withdrawalId: string): Promise<void> => {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rightsKeys.request(tenantId, requestId),
      UpdateExpression: 'SET withdrawalId = :withdrawal',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':withdrawal': withdrawalId },
    }),
  );
};

export const getRequest = async (tenantId: string, requestId: string): Promise<RightsRequest | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rightsKeys.request(tenantId, requestId), ConsistentRead: true }));
  return Item ? requestOf(Item) : undefined;
};

/** A principal's link as stored: only the SHA-256 of the token is the key. */
export interface RequestToken {
  tenantId: string;
  requestId: string;
  createdAt: string;
  /** Epoch seconds; the table's TTL removes the item after it. Absent while the request is open. */
  expiresAt?: number;
}

export const tokenInsert = (tokenHash: string, token: RequestToken): NamedItem => ({
  name: 'request link',
  item: { Put: { TableName: tableName(), Item: { ...rightsKeys.token(tokenHash), type: 'RightsRequestToken', ...token }, ConditionExpression: 'attribute_not_exists(PK)' } },
  // 256 random bits do not collide; a collision would be a bug worth a loud failure.
  onConditionFailure: () => new ConflictError('Request link collision'),
});

/** The link's clean-up time: none while the request is open, 90 days after the answer once resolved. */
export const tokenExpiry = (tokenHash: string, expiresAt: number | null): NamedItem => ({
  name: `request link ${tokenHash.slice(0, 8)}`,
  item: {
    Update: {
      TableName: tableName(),
      Key: rightsKeys.token(tokenHash),
      UpdateExpression: expiresAt === null ? 'REMOVE expiresAt' : 'SET expiresAt = :at',
      ConditionExpression: 'attribute_exists(PK)',
      ...(expiresAt === null ? {} : { ExpressionAttributeValues: { ':at': expiresAt } }),
    },
  },
});

export const getToken = async (tokenHash: string): Promise<RequestToken | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rightsKeys.token(tokenHash), ConsistentRead: true }));
  return Item ? entityOf<RequestToken>(Item) : undefined;
};

export const getSettings = async (tenantId: string): Promise<RightsSettings & { updatedAt: string | null }> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rightsKeys.settings(tenantId) }));
  return {
    grievanceResponseDays: Number(Item?.grievanceResponseDays ?? defaultSettings.grievanceResponseDays),
    requestResponseDays: Number(Item?.requestResponseDays ?? defaultSettings.requestResponseDays),
    identifiersRequired: Array.isArray(Item?.identifiersRequired) ? (Item.identifiersRequired as string[]) : defaultSettings.identifiersRequired,
    updatedAt: typeof Item?.updatedAt === 'string' ? Item.updatedAt : null,
  };
};

export const putSettings = async (tenantId: string, settings: RightsSettings, updatedAt: string): Promise<void> => {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...rightsKeys.settings(tenantId), type: 'RightsSettings', ...settings, updatedAt } }));
};

/** The access summary as answered, frozen with the resolution. */
export const answerInsert = (tenantId: string, requestId: string, summary: unknown): NamedItem => ({
  name: 'access summary',
  item: { Put: { TableName: tableName(), Item: { ...rightsKeys.answer(tenantId, requestId), type: 'RightsAnswer', summary }, ConditionExpression: 'attribute_not_exists(PK)' } },
});

export const getAnswer = async (tenantId: string, requestId: string): Promise<unknown> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rightsKeys.answer(tenantId, requestId) }));
  return Item?.summary;
};

export interface NomineeRecord {
  name: string;
  email: string;
  relationship: string;
  nominatedAt: string;
  requestId: string;
}

export const nomineeInsert = (tenantId: string, principalHash: string, nominee: NomineeRecord): NamedItem => ({
  name: 'nominee',
  item: { Put: { TableName: tableName(), Item: { ...rightsKeys.nominee(tenantId, principalHash, nominee.requestId), type: 'Nominee', principalHash, ...nominee } } },
});

export const nomineesOf = async (tenantId: string, principalHash: string): Promise<NomineeRecord[]> =>
  (await queryPrefix(tenantPartition(tenantId), rightsKeys.nomineePrefix(principalHash))).map((item) => entityOf<NomineeRecord>(item));

/** One key range a listing reads, newest first: every request, or one phase of them. */
export const requestRange = (tenantId: string, phase: Phase | undefined) =>
  phase
    ? { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': rightsKeys.phasePartition(tenantId, phase) } as Record<string, unknown> }
    : { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': tenantPartition(tenantId), ':prefix': rightsKeys.requestPrefix } as Record<string, unknown> };

/**
 * Up to `limit` requests of a range that pass `filter` (a FilterExpression over status, type and
 * dueAt), from `startKey` on, newest first. Each Query asks for no more items than are still
 * wanted, so a page never overshoots and its last evaluated key is an exact cursor; at most
 * `maxQueries` Queries a call, so a sparse filter costs bounded reads per page.
 */
export const queryRequests = async (
  range: ReturnType<typeof requestRange>,
  filter: { expression?: string; names: Record<string, string>; values: Record<string, unknown> },
  limit: number,
  startKey: Record<string, unknown> | undefined,
  maxQueries = 10,
): Promise<{ requests: RightsRequest[]; lastKey: Record<string, unknown> | undefined }> => {
  const requests: RightsRequest[] = [];
  let lastKey = startKey;
  for (let query = 0; query < maxQueries && requests.length < limit; query += 1) {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...range,
        ExpressionAttributeValues: { ...range.ExpressionAttributeValues, ...filter.values },
        ...(filter.expression ? { FilterExpression: filter.expression } : {}),
        ...(Object.keys(filter.names).length > 0 ? { ExpressionAttributeNames: filter.names } : {}),
        ScanIndexForward: false,
        Limit: limit - requests.length,
        ExclusiveStartKey: lastKey,
      }),
    );
    requests.push(...soundRequests(page.Items ?? []));
    lastKey = page.LastEvaluatedKey;
    if (!lastKey) break;
  }
  return { requests, lastKey };
};

/** Requests of every tenant whose due work (expiry, reminder, overdue notice) is at or before `cutoff`, shard by shard. */
export const dueRequests = async (cutoff: string): Promise<RightsRequest[]> => {
  const found: RightsRequest[] = [];
  for (let shard = 0; shard < dueShards; shard += 1) {
    const items = await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
      ExpressionAttributeValues: { ':pk': rightsKeys.duePartition(shard), ':cutoff': cutoff },
    }, { limit: 200 });
    found.push(...soundRequests(items));
  }
  return found;
};
