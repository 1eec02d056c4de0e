import { limitConfig } from '../config';
import { instanceCache } from '../instance-cache';
import { getRecordingItems } from './settings-store';

export type RecordingItems = Awaited<ReturnType<typeof getRecordingItems>>;

/**
 * What recording a consent reads (the published-notice pointer, and the settings item with the
 * live secret keys' identity verifiers), as this warm instance last read it: at most
 * INSTANCE_CACHE_SECONDS (10) old, for at most 1,000 tenants. What holds for a change, in which
 * instance and how soon, is stated once, in docs/security.md (what a warm instance remembers).
 */
const recordingItems = instanceCache<RecordingItems>(1000, () => limitConfig.instanceCacheSeconds * 1000);

export const rememberedRecordingItems = (tenantId: string): RecordingItems | undefined => recordingItems.get(tenantId);

export const readRecordingItemsNow = (tenantId: string): Promise<RecordingItems> => recordingItems.reload(tenantId, () => getRecordingItems(tenantId));

/** After this instance changed a tenant's settings or its secret keys: its next record reads them again. */
export const forgetRecordingItems = (tenantId: string): void => recordingItems.forget(tenantId);
