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
import { ConflictError, NotFoundError } from '../errors';
import { retentionMarks } from '../retention/settings';
import { settingsMarks } from '../consent/settings-store';
import { prohibitedMark } from '../children/policy';

/** What a purpose cannot be shown or published without. */
const purposeShape: RequiredShape = { purposeId: 'string', name: 'string', description: 'string', dataCategories: 'array', legalBasis: 'string' };
const strip = (item: Record<string, unknown>) => checkedEntityOf<Purpose>(item, purposeShape, 'Purpose', 'purposeId');

/**
 * A new purpose. One marked childProhibited is marked in the children policy, and one with a
 * retention is marked (or refused) by the retention settings, on the settings item in the same
 * transaction (children/policy.ts, retention/settings.ts).
 */
export const insertPurpose = async (purpose: Purpose): Promise<void> => {
  const put = { TableName: tableName(), Item: { ...purposeKeys.purpose(purpose.tenantId, purpose.purposeId), type: 'Purpose', ...purpose }, ConditionExpression: 'attribute_not_exists(PK)' };
  const marks = [...(purpose.childProhibited ? [prohibitedMark(purpose.purposeId, true)] : []), ...(purpose.retention ? [retentionMarks(purpose.purposeId, purpose)] : [])];
  if (marks.length === 0) {
    await db().send(new PutCommand(put));
    return;
  }
  await writeTransaction([{ name: 'purpose', item: { Put: put } }, settingsMarks(purpose.tenantId, marks)]);
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

/** The tenant's purposes; `consistent`: every write acknowledged before the read is in it. */
export const listPurposes = async (tenantId: string, options: { consistent?: boolean } = {}): Promise<Purpose[]> =>
  soundEntitiesOf<Purpose>(await queryPrefix(tenantPartition(tenantId), purposeKeys.prefix, options), purposeShape, 'Purpose');

type PurposeFields = Partial<Pick<Purpose, 'name' | 'description' | 'dataCategories' | 'legalBasis' | 'childProhibited' | 'retention' | 'thirdScheduleException'>>;

/** Sets the given fields of an existing purpose; returns the updated purpose. */
export const updatePurposeFields = async (tenantId: string, purposeId: string, fields: PurposeFields, updatedAt: string): Promise<Purpose> => {
  const retentionChanges = fields.retention !== undefined || fields.thirdScheduleException !== undefined;
  if (fields.childProhibited === undefined && !retentionChanges) return strip(await setExistingFields(purposeKeys.purpose(tenantId, purposeId), { ...fields, updatedAt }, 'Purpose'));
  // Whether the purpose keeps data past the Third Schedule's bound depends on fields this update may
  // not send: it is decided on the purpose as read, and the update is conditional on it being unchanged.
  const current = retentionChanges ? await getPurpose(tenantId, purposeId) : undefined;
  if (retentionChanges && !current) throw new NotFoundError('Purpose');
  // The marks change with the purpose, in one transaction; the purpose must exist.
  const entries = Object.entries({ ...fields, updatedAt }).filter(([, value]) => value !== undefined);
  await writeTransaction([
    {
      name: 'purpose',
      item: {
        Update: {
          TableName: tableName(),
          Key: purposeKeys.purpose(tenantId, purposeId),
          UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
          ConditionExpression: current ? 'attribute_exists(PK) AND updatedAt = :read' : 'attribute_exists(PK)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
          ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])), ...(current ? { ':read': current.updatedAt } : {}) },
        },
      },
      onConditionFailure: () => (current ? new ConflictError('The purpose was changed at the same moment; read it and retry') : new NotFoundError('Purpose')),
    },
    settingsMarks(tenantId, [
      ...(fields.childProhibited === undefined ? [] : [prohibitedMark(purposeId, fields.childProhibited)]),
      ...(current ? [retentionMarks(purposeId, { ...current, ...Object.fromEntries(entries) })] : []),
    ]),
  ]);
  const purpose = await getPurpose(tenantId, purposeId);
  if (!purpose) throw new NotFoundError('Purpose');
  return purpose;
};
