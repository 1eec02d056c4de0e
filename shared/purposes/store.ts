import { GetCommand, PutCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { checkedEntityOf, soundEntitiesOf, type RequiredShape } from '../db/item';
import { queryPrefix } from '../db/query';
import { setExistingFields } from '../db/update';
import type { Purpose } from '../notices/notice';
import { tenantPartition } from '../tenants/keys';
import { purposeKeys } from './keys';

/** What a purpose cannot be shown or published without. */
const purposeShape: RequiredShape = { purposeId: 'string', name: 'string', description: 'string', dataCategories: 'array', legalBasis: 'string' };
const strip = (item: Record<string, unknown>) => checkedEntityOf<Purpose>(item, purposeShape, 'Purpose', 'purposeId');

export const insertPurpose = async (purpose: Purpose): Promise<void> => {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...purposeKeys.purpose(purpose.tenantId, purpose.purposeId), type: 'Purpose', ...purpose },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
};

export const getPurpose = async (tenantId: string, purposeId: string): Promise<Purpose | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: purposeKeys.purpose(tenantId, purposeId) }));
  return Item ? strip(Item) : undefined;
};

/** Purposes of the tenant with these ids; ids that are not the tenant's are simply absent. */
export const getPurposes = async (tenantId: string, purposeIds: readonly string[]): Promise<Purpose[]> => {
  const items = await batchGetAll([...new Set(purposeIds)].map((id) => purposeKeys.purpose(tenantId, id)));
  return items.map(strip);
};

export const listPurposes = async (tenantId: string): Promise<Purpose[]> =>
  soundEntitiesOf<Purpose>(await queryPrefix(tenantPartition(tenantId), purposeKeys.prefix), purposeShape, 'Purpose');

/** Sets the given fields of an existing purpose; returns the updated purpose. */
export const updatePurposeFields = async (
  tenantId: string,
  purposeId: string,
  fields: Partial<Pick<Purpose, 'name' | 'description' | 'dataCategories' | 'legalBasis'>>,
  updatedAt: string,
): Promise<Purpose> => strip(await setExistingFields(purposeKeys.purpose(tenantId, purposeId), { ...fields, updatedAt }, 'Purpose'));
