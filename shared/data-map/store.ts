import { DeleteCommand, GetCommand, PutCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { checkedEntityOf, soundEntitiesOf, type RequiredShape } from '../db/item';
import { queryPrefix } from '../db/query';
import { setExistingFields } from '../db/update';
import { tryTransaction, writeTransaction, type NamedItem, type TransactionOutcome } from '../db/transact';
import { ValidationError } from '../errors';
import { noticeKeys } from '../notices/keys';
import { tenantPartition } from '../tenants/keys';
import type { DataAsset, Processor } from './data-map';
import { dataMapKeys } from './keys';

const assetShape: RequiredShape = { assetId: 'string', name: 'string', dataCategories: 'array', purposeIds: 'array', processorIds: 'array', revision: 'number', createdAt: 'string' };
const processorShape: RequiredShape = { processorId: 'string', name: 'string', role: 'string', country: 'string', lawfulDisclosure: 'boolean', createdAt: 'string' };

const assetOf = (item: Record<string, unknown>) => checkedEntityOf<DataAsset>(item, assetShape, 'Data asset', 'assetId');
/** A processor no asset ever listed has no count yet. */
const counted = (processor: Processor): Processor => ({ ...processor, linkedAssets: Number(processor.linkedAssets ?? 0) });
const processorOf = (item: Record<string, unknown>): Processor => counted(checkedEntityOf<Processor>(item, processorShape, 'Processor', 'processorId'));

/**
 * One more (or one fewer) asset listing a processor, in the asset's own transaction. The processor
 * must exist, so an asset can never list a processor deleted a moment before (the delete, in turn,
 * sees this count).
 */
const processorLink = (tenantId: string, processorId: string, delta: 1 | -1): NamedItem => ({
  name: `processor ${processorId}`,
  item: {
    Update: {
      TableName: tableName(),
      Key: dataMapKeys.processor(tenantId, processorId),
      UpdateExpression: 'ADD linkedAssets :delta',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':delta': delta },
    },
  },
  onConditionFailure: () => new ValidationError({ processorIds: `no processor ${processorId} in this data map` }),
});

const assetItem = (asset: DataAsset) => ({ ...dataMapKeys.asset(asset.tenantId, asset.assetId), type: 'DataAsset', ...asset });

export const assetChanged = 'asset';

export const insertAsset = (asset: DataAsset): Promise<void> =>
  writeTransaction([
    { name: assetChanged, item: { Put: { TableName: tableName(), Item: assetItem(asset), ConditionExpression: 'attribute_not_exists(PK)' } } },
    ...asset.processorIds.map((processorId) => processorLink(asset.tenantId, processorId, 1)),
  ]);

/**
 * Replaces the asset as it stood at `previousRevision` (a concurrent change fails the condition,
 * `{ failed: 'asset' }`), moving the processors' link counts by what was added and removed.
 */
export const replaceAsset = (next: DataAsset, previous: DataAsset): Promise<TransactionOutcome> => {
  const added = next.processorIds.filter((id) => !previous.processorIds.includes(id));
  const removed = previous.processorIds.filter((id) => !next.processorIds.includes(id));
  return guardedOutcome([
    {
      name: assetChanged,
      item: { Put: { TableName: tableName(), Item: assetItem(next), ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': previous.revision } } },
    },
    ...added.map((processorId) => processorLink(next.tenantId, processorId, 1)),
    ...removed.map((processorId) => processorLink(next.tenantId, processorId, -1)),
  ]);
};

export const publishedNoticeMoved = 'published notice';

/**
 * The asset's delete in one transaction: the asset as it was read (its revision), the processors'
 * link counts, and a check that the published notice is still the one whose purposes were compared
 * (its pointer's noticeId; or still none). A publish or archive racing the delete fails the check,
 * so the caller decides again on the new notice: a link made meanwhile can never slip past.
 * Keeping a "linked" flag on every asset instead would make each publish rewrite every asset of
 * its purposes, which no transaction (at most 100 items) can promise.
 */
export const deleteAssetIfUnlinked = (asset: DataAsset, publishedNoticeId: string | undefined): Promise<TransactionOutcome> =>
  guardedOutcome([
    {
      name: assetChanged,
      item: { Delete: { TableName: tableName(), Key: dataMapKeys.asset(asset.tenantId, asset.assetId), ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': asset.revision } } },
    },
    {
      name: publishedNoticeMoved,
      item: {
        ConditionCheck: {
          TableName: tableName(),
          Key: noticeKeys.activePointer(asset.tenantId),
          ...(publishedNoticeId
            ? { ConditionExpression: 'noticeId = :notice', ExpressionAttributeValues: { ':notice': publishedNoticeId } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
    },
    ...asset.processorIds.map((processorId) => processorLink(asset.tenantId, processorId, -1)),
  ]);

/**
 * Runs the transaction: an item with its own error (a processor link: the caller's unknown id, 400)
 * throws it; the others (the asset's revision, the published notice) are races the caller decides
 * again on, so they come back as the outcome.
 */
const guardedOutcome = async (items: NamedItem[]): Promise<TransactionOutcome> => {
  const outcome = await tryTransaction(items);
  const failed = typeof outcome === 'object' ? items.find((item) => item.name === outcome.failed) : undefined;
  if (failed?.onConditionFailure) throw failed.onConditionFailure();
  return outcome;
};

export const getAsset = async (tenantId: string, assetId: string): Promise<DataAsset | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: dataMapKeys.asset(tenantId, assetId), ConsistentRead: true }));
  return Item ? assetOf(Item) : undefined;
};

/** The assets of these ids that exist (others are left out), in no particular order. */
export const getAssets = async (tenantId: string, assetIds: readonly string[]): Promise<DataAsset[]> =>
  soundEntitiesOf<DataAsset>(await batchGetAll(assetIds.map((assetId) => dataMapKeys.asset(tenantId, assetId)), { consistent: true }), assetShape, 'Data asset');

export const listAssets = async (tenantId: string): Promise<DataAsset[]> =>
  soundEntitiesOf<DataAsset>(await queryPrefix(tenantPartition(tenantId), dataMapKeys.assetPrefix), assetShape, 'Data asset');

export const insertProcessor = async (processor: Processor): Promise<void> => {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...dataMapKeys.processor(processor.tenantId, processor.processorId), type: 'Processor', ...processor },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
};

export const getProcessor = async (tenantId: string, processorId: string): Promise<Processor | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: dataMapKeys.processor(tenantId, processorId), ConsistentRead: true }));
  return Item ? processorOf(Item) : undefined;
};

/** The tenant's processors with these ids; ids that are not the tenant's are absent. */
export const getProcessors = async (tenantId: string, processorIds: readonly string[]): Promise<Processor[]> =>
  (await batchGetAll([...new Set(processorIds)].map((id) => dataMapKeys.processor(tenantId, id)))).map(processorOf);

export const listProcessors = async (tenantId: string): Promise<Processor[]> =>
  soundEntitiesOf<Processor>(await queryPrefix(tenantPartition(tenantId), dataMapKeys.processorPrefix), processorShape, 'Processor').map(counted);

type ProcessorFields = Partial<Pick<Processor, 'name' | 'role' | 'contactEmail' | 'country' | 'description' | 'lawfulDisclosure'>>;

export const updateProcessorFields = async (tenantId: string, processorId: string, fields: ProcessorFields, updatedAt: string): Promise<Processor> =>
  processorOf(await setExistingFields(dataMapKeys.processor(tenantId, processorId), { ...fields, updatedAt }, 'Processor'));

/**
 * Deletes the processor only while no asset lists it: one conditional write on the count the
 * assets' transactions keep. False when it is missing or linked (the caller tells which).
 */
export const deleteUnlinkedProcessor = (tenantId: string, processorId: string): Promise<boolean> =>
  writtenUnlessRaced(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: dataMapKeys.processor(tenantId, processorId),
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(linkedAssets) OR linkedAssets = :none)',
        ExpressionAttributeValues: { ':none': 0 },
      }),
    ),
  );
