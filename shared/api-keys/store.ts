import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { conditional, conflict, notFound } from '../db/errors';
import { apiKeyKeys } from './keys';

export interface ApiKeyItem {
  keyId: string;
  tenantId: string;
  secretHash: string;
  last4: string;
  createdAt: string;
  revokedAt?: string;
}

export interface DomainItem {
  domainId: string;
  domain: string;
  createdAt: string;
}

export const insertApiKey = async (key: ApiKeyItem): Promise<void> => {
  await conditional(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...apiKeyKeys.key(key.keyId),
            ...apiKeyKeys.tenantListing(key.tenantId, key.createdAt, key.keyId),
            type: 'ApiKey',
            ...key,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    conflict('API key id collision'),
  );
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

/** Idempotent: revoking twice keeps the first revocation time. */
export const markApiKeyRevoked = async (tenantId: string, keyId: string, at: string): Promise<ApiKeyItem> => {
  const { Attributes } = await conditional(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: apiKeyKeys.key(keyId),
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ConditionExpression: 'attribute_exists(PK) AND tenantId = :tenant',
          ExpressionAttributeValues: { ':at': at, ':tenant': tenantId },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    notFound('API key'),
  );
  return Attributes as ApiKeyItem;
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
