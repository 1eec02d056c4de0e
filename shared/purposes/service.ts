import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { NotFoundError } from '../errors';
import { newId } from '../ids';
import type { Purpose } from '../notices/notice';
import type { createPurposeBody, updatePurposeBody } from './schemas';
import { getPurpose, insertPurpose, listPurposes as listStoredPurposes, updatePurposeFields } from './store';

/**
 * Purposes are edited in place: a published notice is unaffected because publish snapshots the
 * purposes as they stood, and the next publish reports what changed (and whether it is material).
 */
export const purposeView = (purpose: Purpose) => ({
  id: purpose.purposeId,
  name: purpose.name,
  description: purpose.description,
  dataCategories: purpose.dataCategories,
  legalBasis: purpose.legalBasis,
  childProhibited: purpose.childProhibited === true,
  retention: purpose.retention ?? null,
  thirdScheduleException: purpose.thirdScheduleException ?? null,
  createdAt: purpose.createdAt,
  updatedAt: purpose.updatedAt,
});

export const createPurpose = async (tenantId: string, input: z.output<typeof createPurposeBody>) => {
  const now = nowIso();
  const purpose: Purpose = { purposeId: newId(), tenantId, ...input, createdAt: now, updatedAt: now };
  await insertPurpose(purpose);
  return purposeView(purpose);
};

export const listPurposes = async (tenantId: string) =>
  (await listStoredPurposes(tenantId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(purposeView);

export const readPurpose = async (tenantId: string, purposeId: string) => {
  const purpose = await getPurpose(tenantId, purposeId);
  if (!purpose) throw new NotFoundError('Purpose');
  return purposeView(purpose);
};

export const updatePurpose = async (tenantId: string, purposeId: string, input: z.output<typeof updatePurposeBody>) =>
  purposeView(await updatePurposeFields(tenantId, purposeId, input, nowIso()));
