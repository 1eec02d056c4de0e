import { principalRecords } from '../consent/store';
import { listAssets } from '../data-map/store';
import { named, type NamedItem } from '../db/transact';
import { newEvent, outboxPut } from '../events/outbox';
import type { ActorSnapshot } from '../users/actor-words';
import { submissionDocument } from './evidence';
import { dpoMail } from './mails';
import { dueAtFor, firstDueStage, hasChecklist, type RightsRequest } from './request';
import { getSettings } from './store';
import { assetsOfPurposes, consentedPurposeIds } from './summary';

/**
 * A request as it becomes SUBMITTED (confirmed by the principal, or logged by the team): its due
 * date from the tenant's response period for its type, the assets that hold the principal's data
 * (those of the purposes they consented to; for the s.12 types each starts PENDING), and the due
 * sweep's first work on it.
 */
export const asSubmitted = async (request: RightsRequest, at: Date, by: string, actor?: ActorSnapshot): Promise<RightsRequest> => {
  const [settings, records, assets] = await Promise.all([
    getSettings(request.tenantId),
    principalRecords(request.tenantId, request.principalHash),
    listAssets(request.tenantId),
  ]);
  const submittedAt = at.toISOString();
  const dueAt = dueAtFor(request.requestType, at, settings);
  const checklist = hasChecklist(request.requestType);
  return {
    ...request,
    status: 'SUBMITTED',
    submittedAt,
    dueAt,
    confirmBy: null,
    dueStage: firstDueStage(submittedAt, dueAt),
    assets: assetsOfPurposes(assets, consentedPurposeIds(records)).map((asset) => ({
      assetId: asset.assetId,
      name: asset.name,
      system: asset.system,
      state: checklist ? 'PENDING' : null,
      note: null,
      updatedAt: null,
      updatedBy: null,
    })),
    timeline: [...request.timeline, { at: submittedAt, status: 'SUBMITTED', by, ...(actor ? { actor } : {}) }],
    version: request.version + 1,
  };
};

/**
 * What is written with the submission, in its transaction: the logged submission document, the
 * rights.submitted event and the DPO's mail. Returns the request naming its document.
 */
export const submissionItems = (submitted: RightsRequest, dpo: { contact: string | null; timeZone?: string | undefined }): { request: RightsRequest; items: NamedItem[] } => {
  const document = submissionDocument(submitted);
  const request = { ...submitted, submissionDocumentId: document.document.documentId };
  const event = newEvent(request.tenantId, 'rights.submitted', {
    requestId: request.requestId,
    type: request.requestType,
    channel: request.channel,
    principalHash: request.principalHash,
    submittedAt: request.submittedAt!,
    dueAt: request.dueAt!,
    assets: request.assets.map(({ assetId, name, system }) => ({ assetId, name, system })),
  });
  return { request, items: [document.item, named('event', outboxPut(event)), ...dpoMail(request, dpo, 'SUBMITTED')] };
};
