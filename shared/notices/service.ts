import type * as z from 'zod/mini';
import { nowIso } from '../clock';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { newId } from '../ids';
import { getPurposes } from '../purposes/store';
import type { Notice, NoticeTranslations, PurposeConfig } from './notice';
import type { createNoticeBody, updateNoticeBody } from './schemas';
import { archivePublished, deleteDraft } from './change-store';
import { getActivePointer, insertNotice, listNotices as listStoredNotices, requireDraft, requireNotice, writeDraft } from './store';
import { noticeDetailView, noticeView } from './views';
import { consentCountOf, readStats } from '../consent/store';

/**
 * Checks what a notice may reference: its purposes must be the tenant's own, listed once, and
 * its purposeConfig may only configure purposes the notice lists.
 */
const checkPurposeReferences = async (tenantId: string, purposeIds: readonly string[], purposeConfig: readonly PurposeConfig[]) => {
  const fields: Record<string, string> = {};
  if (new Set(purposeIds).size !== purposeIds.length) fields.purposeIds = 'each purpose may be listed once';
  const found = new Set((await getPurposes(tenantId, purposeIds)).map((purpose) => purpose.purposeId));
  const unknown = purposeIds.filter((id) => !found.has(id));
  if (unknown.length > 0) fields.purposeIds = `not purposes of this tenant: ${unknown.join(', ')}`;
  const configured = new Set<string>();
  purposeConfig.forEach((entry, index) => {
    if (!purposeIds.includes(entry.purposeId)) fields[`purposeConfig.${index}.purposeId`] = 'must be one of purposeIds';
    else if (configured.has(entry.purposeId)) fields[`purposeConfig.${index}.purposeId`] = 'configured twice';
    configured.add(entry.purposeId);
  });
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
};

const stampTranslations = (translations: z.output<typeof createNoticeBody>['translations'], at: string): NoticeTranslations =>
  Object.fromEntries(Object.entries(translations ?? {}).map(([language, fields]) => [language, { ...fields, source: 'MANUAL', updatedAt: at }]));

export const createNotice = async (tenantId: string, input: z.output<typeof createNoticeBody>) => {
  await checkPurposeReferences(tenantId, input.purposeIds, input.purposeConfig ?? []);
  const now = nowIso();
  const notice: Notice = {
    noticeId: newId(),
    tenantId,
    lineageId: newId(),
    status: 'DRAFT',
    versionNumber: null,
    title: input.title,
    introText: input.introText,
    contactEmail: input.contactEmail,
    contactUrl: input.contactUrl ?? null,
    rightsText: input.rightsText,
    complaintText: input.complaintText,
    withdrawalUrl: input.withdrawalUrl ?? null,
    purposeIds: input.purposeIds,
    purposeConfig: input.purposeConfig ?? [],
    translations: stampTranslations(input.translations, now),
    revision: 1,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    archivedAt: null,
  };
  await insertNotice(notice);
  return noticeView(notice, 0);
};

/** Partial update of a DRAFT, checked against the merged state and conditional on the revision read. */
export const updateNotice = async (tenantId: string, noticeId: string, input: z.output<typeof updateNoticeBody>) => {
  const current = await requireDraft(tenantId, noticeId);
  const now = nowIso();
  const { translations, ...fields } = input;
  const set: Record<string, unknown> = { ...fields, updatedAt: now };
  if (translations !== undefined) set.translations = stampTranslations(translations, now);
  if (input.purposeIds || input.purposeConfig) {
    const purposeIds = input.purposeIds ?? current.purposeIds;
    const purposeConfig = input.purposeConfig ?? current.purposeConfig.filter((entry) => purposeIds.includes(entry.purposeId));
    await checkPurposeReferences(tenantId, purposeIds, purposeConfig);
    set.purposeConfig = purposeConfig;
  }
  // Consent is only recorded against published notices: a draft has none.
  return noticeView(await writeDraft(tenantId, noticeId, current.revision, { set }), 0);
};

export const readNotice = async (tenantId: string, noticeId: string) => {
  const [notice, stats] = await Promise.all([requireNotice(tenantId, noticeId), readStats(tenantId)]);
  return noticeDetailView(notice, consentCountOf(stats, noticeId), await getPurposes(tenantId, notice.purposeIds));
};

export const listNotices = async (tenantId: string, includeArchived: boolean) => {
  const [notices, stats] = await Promise.all([listStoredNotices(tenantId), readStats(tenantId)]);
  return notices
    .filter((notice) => includeArchived || notice.status !== 'ARCHIVED')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((notice) => noticeView(notice, consentCountOf(stats, notice.noticeId)));
};

export const readActiveNotice = async (tenantId: string) => {
  const pointer = await getActivePointer(tenantId);
  if (!pointer) throw new NotFoundError('Published notice');
  return readNotice(tenantId, pointer.noticeId);
};

/**
 * A DRAFT without consent records is deleted outright; a PUBLISHED notice is soft-archived and
 * kept, with its versions, as evidence of what people agreed to. The published notice's
 * pointer and public document go in the same transaction, so the widget never serves it again.
 */
export const archiveNotice = async (tenantId: string, noticeId: string) => {
  const [notice, stats] = await Promise.all([requireNotice(tenantId, noticeId, true), readStats(tenantId)]);
  const consentCount = consentCountOf(stats, noticeId);
  if (notice.status === 'ARCHIVED') throw new ConflictError('Notice is already ARCHIVED');
  if (notice.status === 'DRAFT') {
    await deleteDraft(notice);
    return { action: 'DELETED' as const, noticeId, consentCount: 0, message: 'Draft notice deleted; it had no consent records.' };
  }
  await archivePublished(tenantId, noticeId, nowIso());
  return {
    action: 'ARCHIVED' as const,
    noticeId,
    consentCount,
    message: `Notice archived and kept as evidence with its ${consentCount} consent record(s); it is no longer served to the widget.`,
  };
};

/** A new DRAFT in the same lineage as a published (or archived) notice; publishing it gives the next version. */
export const reviseNotice = async (tenantId: string, noticeId: string) => {
  const source = await requireNotice(tenantId, noticeId);
  if (source.status === 'DRAFT') throw new ConflictError('Notice is a DRAFT already; edit it instead of revising it');
  const now = nowIso();
  const draft: Notice = {
    ...source,
    noticeId: newId(),
    status: 'DRAFT',
    versionNumber: null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    archivedAt: null,
  };
  await insertNotice(draft);
  return noticeView(draft, 0);
};
