import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type PutCommandInput } from '../db/commands';
import { db, tableName } from '../db/client';
import { conditional, conflict, ContentionError, notFound } from '../db/errors';
import { named, tryTransaction, writeTransaction, type NamedItem } from '../db/transact';
import { verifierAdd, verifierRemove } from '../consent/settings-store';
import type { ApiKeyKind } from './api-key';
import { apiKeyKeys } from './keys';

export interface ApiKeyItem {
  keyId: string;
  tenantId: string;
  /** Absent on keys made before there were two kinds: those are publishable. */
  kind?: ApiKeyKind;
  secretHash: string;
  last4: string;
  createdAt: string;
  revokedAt?: string;
}

const keyPut = (key: ApiKeyItem): PutCommandInput => ({
  TableName: tableName(),
  Item: {
    ...apiKeyKeys.key(key.keyId),
    ...apiKeyKeys.tenantListing(key.tenantId, key.createdAt, key.keyId),
    type: 'ApiKey',
    ...key,
  },
  ConditionExpression: 'attribute_not_exists(PK)',
});

const keyCollision = conflict('API key id collision');

/**
 * A secret key and its sealed identity verifier, in one transaction: the key exists exactly when
 * its signatures can be checked (and not past the tenant's live secret-key limit).
 */
export const insertSecretApiKey = (key: ApiKeyItem, sealedVerifier: string): Promise<void> =>
  writeTransaction([{ name: 'API key', item: { Put: keyPut(key) }, onConditionFailure: keyCollision }, verifierAdd(key.tenantId, key.keyId, sealedVerifier)]);

export interface DomainItem {
  domainId: string;
  domain: string;
  createdAt: string;
}

export const insertApiKey = async (key: ApiKeyItem): Promise<void> => {
  await conditional(() => db().send(new PutCommand(keyPut(key))), keyCollision);
};

/** The key and its allowed domains in one Query of the key's partition. */
export const loadApiKeyWithDomains = async (
  keyId: string,
): Promise<{ key: ApiKeyItem | undefined; domains: DomainItem[] }> => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': apiKeyKeys.partition(keyId) },
    }),
  );
  const key = Items.find((item) => item.SK === 'KEY') as ApiKeyItem | undefined;
  const domains = Items.filter((item) => String(item.SK).startsWith(apiKeyKeys.domainPrefix)) as DomainItem[];
  return { key, domains };
};

export const listTenantApiKeys = async (tenantId: string): Promise<ApiKeyItem[]> => {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': apiKeyKeys.tenantListingPartition(tenantId) },
      ScanIndexForward: false,
    }),
  );
  return Items as ApiKeyItem[];
};

const revocation = (tenantId: string, keyId: string, at: string) => ({
  TableName: tableName(),
  Key: apiKeyKeys.key(keyId),
  UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
  ConditionExpression: 'attribute_exists(PK) AND tenantId = :tenant',
  ExpressionAttributeValues: { ':at': at, ':tenant': tenantId },
});

/** Idempotent: revoking twice keeps the first revocation time. */
export const markApiKeyRevoked = async (tenantId: string, keyId: string, at: string): Promise<ApiKeyItem> => {
  const { Attributes } = await conditional(() => db().send(new UpdateCommand({ ...revocation(tenantId, keyId, at), ReturnValues: 'ALL_NEW' })), notFound('API key'));
  return Attributes as ApiKeyItem;
};

/**
 * A live secret key's revocation takes its identity verifier with it, in one transaction: from
 * the next request on its signatures no longer verify. A key already revoked (or a verifier
 * already gone) leaves nothing to take, and the plain idempotent revocation answers.
 */
export const revokeSecretApiKey = async (tenantId: string, keyId: string, at: string): Promise<ApiKeyItem> => {
  const items: NamedItem[] = [
    named('API key', { Update: { ...revocation(tenantId, keyId, at), ConditionExpression: 'attribute_exists(PK) AND tenantId = :tenant AND attribute_not_exists(revokedAt)' } }),
    verifierRemove(tenantId, keyId),
  ];
  let outcome = await tryTransaction(items);
  for (let attempt = 1; outcome === 'contended' && attempt < 4; attempt += 1) outcome = await tryTransaction(items);
  // Never revoke the key while its verifier stays: a revoked key's signature must not verify.
  if (outcome === 'contended') throw new ContentionError(undefined);
  return markApiKeyRevoked(tenantId, keyId, at);
};

export const insertDomain = async (keyId: string, tenantId: string, domain: DomainItem): Promise<void> => {
  await conditional(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...apiKeyKeys.domain(keyId, domain.domain), type: 'AllowedDomain', tenantId, ...domain },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    conflict(`The domain ${domain.domain} is already registered for this key`),
  );
};

export const deleteDomain = async (keyId: string, domain: string): Promise<void> => {
  await conditional(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: apiKeyKeys.domain(keyId, domain),
          ConditionExpression: 'attribute_exists(PK)',
        }),
      ),
    notFound('Domain'),
  );
};
