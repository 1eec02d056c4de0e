import { GetCommand, PutCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { checkedEntityOf, soundEntitiesOf, type RequiredShape } from '../db/item';
import { queryPrefix } from '../db/query';
import { setExistingFields } from '../db/update';
import type { Purpose } from '../notices/notice';
import { tenantPartition } from '../tenants/keys';
import { purposeKeys } from './keys';
import { writeTransaction } from '../db/transact';
import { NotFoundError } from '../errors';
import { prohibitedMark } from '../children/policy';

/** What a purpose cannot be shown or published without. */
const purposeShape: RequiredShape = { purposeId: 'string', name: 'string', description: 'string', dataCategories: 'array', legalBasis: 'string' };
const strip = (item: Record<string, unknown>) => checkedEntityOf<Purpose>(item, purposeShape, 'Purpose', 'purposeId');

/** A new purpose; one marked childProhibited is marked in the children policy in the same transaction (children/policy.ts). */
export const insertPurpose = async (purpose: Purpose): Promise<void> => {
  const put = { TableName: tableName(), Item: { ...purposeKeys.purpose(purpose.tenantId, purpose.purposeId), type: 'Purpose', ...purpose }, ConditionExpression: 'attribute_not_exists(PK)' };
  if (!purpose.childProhibited) {
    await db().send(new PutCommand(put));
    return;
  }
  await writeTransaction([{ name: 'purpose', item: { Put: put } }, prohibitedMark(purpose.tenantId, purpose.purposeId, true)]);
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
  fields: Partial<Pick<Purpose, 'name' | 'description' | 'dataCategories' | 'legalBasis' | 'childProhibited'>>,
  updatedAt: string,
): Promise<Purpose> => {
  if (fields.childProhibited === undefined) return strip(await setExistingFields(purposeKeys.purpose(tenantId, purposeId), { ...fields, updatedAt }, 'Purpose'));
  // The mark in the children policy changes with the purpose, in one transaction; the purpose must exist.
  const entries = Object.entries({ ...fields, updatedAt }).filter(([, value]) => value !== undefined);
  await writeTransaction([
    {
      name: 'purpose',
      item: {
        Update: {
          TableName: tableName(),
          Key: purposeKeys.purpose(tenantId, purposeId),
          UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
        },
      },
      onConditionFailure: () => new NotFoundError('Purpose'),
    },
    prohibitedMark(tenantId, purposeId, fields.childProhibited),
  ]);
  const purpose = await getPurpose(tenantId, purposeId);
  if (!purpose) throw new NotFoundError('Purpose');
  return purpose;
};
