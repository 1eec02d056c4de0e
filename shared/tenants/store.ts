import { GetCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { entityOf } from '../db/item';
import { queryAll } from '../db/query';
import { writeTransaction } from '../db/transact';
import { ConflictError, NotFoundError } from '../errors';
import { userPutItems } from '../users/store';
import type { User } from '../users/user';
import { tenantKeys } from './keys';
import type { Tenant } from './tenant';

/** Tenant, slug guard, first user and its login guard: all or nothing. */
export const insertTenantWithAdmin = async (tenant: Tenant, admin: User): Promise<void> => {
  await writeTransaction([
    {
      name: 'tenant',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...tenantKeys.tenant(tenant.tenantId), ...tenantKeys.directory(tenant), type: 'Tenant', ...tenant },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: () => new ConflictError('The tenant already exists'),
    },
    {
      name: 'slug guard',
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...tenantKeys.slugGuard(tenant.slug), type: 'TenantSlug', tenantId: tenant.tenantId },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFailure: () => new ConflictError(`The slug ${tenant.slug} is already taken`),
    },
    ...userPutItems(admin),
  ]);
};

export const getTenant = async (tenantId: string): Promise<Tenant | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.tenant(tenantId) }));
  if (!Item) return undefined;
  return entityOf<Tenant>(Item);
};

/** The tenant a public page names by its slug: the slug guard holds the tenant id. */
export const getTenantBySlug = async (slug: string): Promise<Tenant | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.slugGuard(slug) }));
  return Item ? getTenant(String(Item.tenantId)) : undefined;
};

export const requireTenant = async (tenantId: string): Promise<Tenant> => {
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFoundError('Tenant');
  return tenant;
};

/** Every tenant, oldest first: for operators (the CLI), never a request path. */
export const listTenants = async (): Promise<Tenant[]> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :directory',
    ExpressionAttributeValues: { ':directory': tenantKeys.directory({ tenantId: '', createdAt: '' }).GSI1PK },
  });
  return items.map((item) => entityOf<Tenant>(item));
};
