import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { ContentionError } from '../db/errors';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { newId } from '../ids';
import { getActivePointer } from '../notices/store';
import { getPurposes } from '../purposes/store';
import { requireRightsFeature } from '../tenants/features';
import type { DataAsset, Processor } from './data-map';
import type { createAssetBody, createProcessorBody, updateAssetBody, updateProcessorBody } from './schemas';
import { deleteAssetIfUnlinked, deleteUnlinkedProcessor, getAsset, getProcessor, getProcessors, insertAsset, insertProcessor, listAssets, listProcessors, replaceAsset, updateProcessorFields } from './store';

/** The purposes of the published notice (none when nothing is published), and which notice that is. */
const publishedPurposes = async (tenantId: string) => {
  const pointer = await getActivePointer(tenantId);
  return { noticeId: pointer?.noticeId, purposeIds: new Set(pointer?.purposes.map((purpose) => purpose.id) ?? []) };
};

const assetView = (asset: DataAsset, published: Set<string>) => ({
  assetId: asset.assetId,
  name: asset.name,
  description: asset.description,
  system: asset.system,
  location: asset.location,
  dataCategories: asset.dataCategories,
  purposeIds: asset.purposeIds,
  processorIds: asset.processorIds,
  retentionDays: asset.retentionDays,
  linkedToPublishedNotice: asset.purposeIds.some((id) => published.has(id)),
  createdAt: asset.createdAt,
  updatedAt: asset.updatedAt,
});

const processorView = (processor: Processor) => ({
  processorId: processor.processorId,
  name: processor.name,
  role: processor.role,
  contactEmail: processor.contactEmail,
  country: processor.country,
  description: processor.description,
  lawfulDisclosure: processor.lawfulDisclosure,
  linkedAssets: processor.linkedAssets,
  createdAt: processor.createdAt,
  updatedAt: processor.updatedAt,
});

const unknownIds = (wanted: readonly string[], found: readonly string[]) => wanted.filter((id) => !found.includes(id));

/**
 * The body's purposes and processors must be the tenant's own: 400 naming the field. Purposes are
 * never deleted, so reading them is enough; processors can be, so the asset's transaction checks
 * each again as it links it.
 */
const checkReferences = async (tenantId: string, input: { purposeIds?: string[]; processorIds?: string[] }) => {
  const fields: Record<string, string> = {};
  if (input.purposeIds?.length) {
    const missing = unknownIds(input.purposeIds, (await getPurposes(tenantId, input.purposeIds)).map((purpose) => purpose.purposeId));
    if (missing.length > 0) fields.purposeIds = `not purposes of this tenant: ${missing.join(', ')}`;
  }
  if (input.processorIds?.length) {
    const missing = unknownIds(input.processorIds, (await getProcessors(tenantId, input.processorIds)).map((processor) => processor.processorId));
    if (missing.length > 0) fields.processorIds = `not processors of this data map: ${missing.join(', ')}`;
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
};

const requireAsset = async (tenantId: string, assetId: string): Promise<DataAsset> => {
  const asset = await getAsset(tenantId, assetId);
  if (!asset) throw new NotFoundError('Data asset');
  return asset;
};

export const createAsset = async (tenantId: string, input: z.output<typeof createAssetBody>) => {
  await requireRightsFeature(tenantId);
  await checkReferences(tenantId, input);
  const now = nowIso();
  const asset: DataAsset = { tenantId, assetId: newId(), ...input, revision: 1, createdAt: now, updatedAt: now };
  await insertAsset(asset);
  return assetView(asset, (await publishedPurposes(tenantId)).purposeIds);
};

/** Oldest first. */
export const listDataAssets = async (tenantId: string) => {
  await requireRightsFeature(tenantId);
  const [assets, published] = await Promise.all([listAssets(tenantId), publishedPurposes(tenantId)]);
  return assets.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((asset) => assetView(asset, published.purposeIds));
};

export const readAsset = async (tenantId: string, assetId: string) => {
  await requireRightsFeature(tenantId);
  const [asset, published] = await Promise.all([requireAsset(tenantId, assetId), publishedPurposes(tenantId)]);
  return assetView(asset, published.purposeIds);
};

/** A change of the asset as read; a concurrent change of the same asset is a 409 to reload after. */
export const updateAsset = async (tenantId: string, assetId: string, input: z.output<typeof updateAssetBody>) => {
  await requireRightsFeature(tenantId);
  const previous = await requireAsset(tenantId, assetId);
  await checkReferences(tenantId, input);
  const fields = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<DataAsset>;
  const next: DataAsset = { ...previous, ...fields, revision: previous.revision + 1, updatedAt: nowIso() };
  const outcome = await replaceAsset(next, previous);
  if (outcome !== 'ok') throw new ConflictError('The data asset was changed by another request; reload and retry');
  return assetView(next, (await publishedPurposes(tenantId)).purposeIds);
};

const attempts = 5;

/**
 * Deletes an asset unless one of its purposes is in the published notice (409
 * ASSET_LINKED_TO_PUBLISHED_NOTICE). The decision and the delete are one transaction conditional
 * on the asset and the published notice as read; when a publish, an archive or a change of the
 * asset races it, it decides again from a fresh read.
 */
export const deleteAsset = async (tenantId: string, assetId: string) => {
  await requireRightsFeature(tenantId);
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const [asset, published] = await Promise.all([requireAsset(tenantId, assetId), publishedPurposes(tenantId)]);
    const linked = asset.purposeIds.filter((id) => published.purposeIds.has(id));
    if (linked.length > 0) {
      const names = (await getPurposes(tenantId, linked)).map((purpose) => purpose.name).sort();
      throw new AppError(
        'ASSET_LINKED_TO_PUBLISHED_NOTICE',
        `"${asset.name}" serves ${names.join(', ')}, in the published notice: take those purposes off the asset, or publish a notice without them, before deleting it`,
        { details: { noticeId: published.noticeId, purposeIds: linked } },
      );
    }
    if ((await deleteAssetIfUnlinked(asset, published.noticeId)) === 'ok') return { deleted: true as const };
  }
  throw new ContentionError(new Error('the asset or the published notice kept changing'));
};

export const createProcessor = async (tenantId: string, input: z.output<typeof createProcessorBody>) => {
  await requireRightsFeature(tenantId);
  const now = nowIso();
  const processor: Processor = { tenantId, processorId: newId(), ...input, linkedAssets: 0, createdAt: now, updatedAt: now };
  await insertProcessor(processor);
  return processorView(processor);
};

/** Oldest first. */
export const listDataProcessors = async (tenantId: string) => {
  await requireRightsFeature(tenantId);
  return (await listProcessors(tenantId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(processorView);
};

export const readProcessor = async (tenantId: string, processorId: string) => {
  await requireRightsFeature(tenantId);
  const processor = await getProcessor(tenantId, processorId);
  if (!processor) throw new NotFoundError('Processor');
  return processorView(processor);
};

export const updateProcessor = async (tenantId: string, processorId: string, input: z.output<typeof updateProcessorBody>) => {
  await requireRightsFeature(tenantId);
  return processorView(await updateProcessorFields(tenantId, processorId, input, nowIso()));
};

/** Deletes a processor no asset lists, in one conditional write on the count the assets keep (409 PROCESSOR_HAS_LINKED_ASSETS otherwise). */
export const deleteProcessor = async (tenantId: string, processorId: string) => {
  await requireRightsFeature(tenantId);
  if (await deleteUnlinkedProcessor(tenantId, processorId)) return { deleted: true as const };
  const [processor, assets] = await Promise.all([getProcessor(tenantId, processorId), listAssets(tenantId)]);
  if (!processor) throw new NotFoundError('Processor');
  const listing = assets.filter((asset) => asset.processorIds.includes(processorId)).map((asset) => ({ assetId: asset.assetId, name: asset.name }));
  throw new AppError('PROCESSOR_HAS_LINKED_ASSETS', `"${processor.name}" is listed by ${listing.map((asset) => `"${asset.name}"`).join(', ') || `${processor.linkedAssets} data asset(s)`}: take it off them before deleting it`, {
    details: { linkedAssets: processor.linkedAssets, assets: listing },
  });
};
