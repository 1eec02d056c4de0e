import { nowIso } from '../clock';
import { engineConfig } from '../config';
import { ContentionError } from '../db/errors';
import { ConflictError, ValidationError } from '../errors';
import { getPurposes } from '../purposes/store';
import { diffSnapshots } from './diff';
import { noticeTextOf, type Notice, type NoticeSnapshot, type Purpose } from './notice';
import { buildPublicNotice, materialBaselineOf } from './public-notice';
import { commitPublish } from './publish-store';
import { getActivePointer, getLastVersionNumber, getPublicDocument, getVersion, requireNotice, type ActivePointer } from './store';
import { configuredPurposes } from './views';
import { noticeTextHash, shownLanguages } from '../consent/notice-text';
import { tenantPortalPageUrl } from '../consent/portal-urls';
import { requireTenant } from '../tenants/store';

/**
 * What the DPDP Act asks a notice to say before anyone is asked to consent: purposes with the
 * data they use, whom to contact, the principal's rights, how to complain, how to withdraw.
 */
const completenessGate = (notice: Notice, purposes: readonly Purpose[]) => {
  const fields: Record<string, string> = {};
  const found = new Set(purposes.map((purpose) => purpose.purposeId));
  if (notice.purposeIds.length === 0 || notice.purposeIds.some((id) => !found.has(id))) {
    fields.purposeIds = 'at least one purpose is required, and every listed purpose must exist';
  }
  if (purposes.some((purpose) => purpose.dataCategories.length === 0)) fields.purposeIds = 'every purpose must name its data categories';
  if (!notice.contactEmail) fields.contactEmail = 'a contact email for the DPO or support is required';
  if (!notice.rightsText) fields.rightsText = "the principal's rights must be described";
  if (!notice.complaintText) fields.complaintText = 'how to complain must be described';
  if (!notice.withdrawalUrl && !engineConfig.portalBaseUrl) {
    fields.withdrawalUrl = 'a withdrawal route is required: set withdrawalUrl (no withdrawal portal is configured)';
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields, 'Notice is not complete enough to publish');
};

const snapshotOf = (notice: Notice, purposes: readonly Purpose[], versionNumber: number, changeNote: string | null, publishedBy: string, at: string): NoticeSnapshot => ({
  noticeId: notice.noticeId,
  lineageId: notice.lineageId,
  versionNumber,
  changeNote,
  publishedAt: at,
  publishedBy,
  ...noticeTextOf(notice),
  purposes: configuredPurposes(notice, purposes).map(({ purpose, isRequired, displayOrder }) => ({
    id: purpose.purposeId,
    name: purpose.name,
    description: purpose.description,
    dataCategories: purpose.dataCategories,
    legalBasis: purpose.legalBasis,
    required: isRequired,
    displayOrder,
    ...(purpose.retention ? { retention: purpose.retention } : {}),
  })),
  translations: notice.translations,
});

const activePointerOf = (snapshot: NoticeSnapshot): ActivePointer => ({
  noticeId: snapshot.noticeId,
  lineageId: snapshot.lineageId,
  versionNumber: snapshot.versionNumber,
  title: snapshot.title,
  purposes: snapshot.purposes.map((purpose) => ({ id: purpose.id, required: purpose.required })),
  textHashes: Object.fromEntries(shownLanguages(snapshot).map((language) => [language, noticeTextHash(snapshot, language)])),
});

/** The version people saw before this publish: the notice it replaces, else the lineage's previous one. */
const previousSnapshot = async (tenantId: string, active: ActivePointer | undefined, notice: Notice, next: number) => {
  if (active) return getVersion(tenantId, active.lineageId, active.versionNumber);
  return next > 1 ? getVersion(tenantId, notice.lineageId, next - 1) : undefined;
};

/**
 * Publishes a DRAFT in one transaction: the notice becomes PUBLISHED at the revision that was
 * read (an edit racing the publish fails one of them), the lineage's version counter moves on
 * by one, the immutable snapshot and the public document are written, the previously published
 * notice is archived and the active pointer moved (conditional on the pointer that was read,
 * so of two simultaneous publishes exactly one wins), and notice.published goes to the outbox.
 */
export const publishNotice = async (tenantId: string, noticeId: string, changeNote: string | null, publishedBy: string) => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await publishOnce(tenantId, noticeId, changeNote, publishedBy);
    } catch (error) {
      // Cancelled by a concurrent transaction (not by a failed condition): decide again from a fresh read.
      if (!(error instanceof ContentionError) || attempt === 3) throw error;
    }
  }
};

const publishOnce = async (tenantId: string, noticeId: string, changeNote: string | null, publishedBy: string) => {
  const notice = await requireNotice(tenantId, noticeId, true);
  if (notice.status !== 'DRAFT') throw new ConflictError(`Notice is ${notice.status}; only a DRAFT can be published`);
  const purposes = await getPurposes(tenantId, notice.purposeIds);
  completenessGate(notice, purposes);
  const [active, lastVersion, tenant, replacedDocument] = await Promise.all([
    getActivePointer(tenantId),
    getLastVersionNumber(tenantId, notice.lineageId),
    requireTenant(tenantId),
    getPublicDocument(tenantId),
  ]);
  const versionNumber = lastVersion + 1;
  const at = nowIso();
  const snapshot = snapshotOf(notice, purposes, versionNumber, changeNote, publishedBy, at);
  const previous = await previousSnapshot(tenantId, active, notice, versionNumber);
  const diff = previous ? diffSnapshots(previous, snapshot) : undefined;
  const baseline = materialBaselineOf(snapshot, diff, replacedDocument, previous?.noticeId);

  await commitPublish({
    notice,
    snapshot,
    lastVersion,
    active,
    activePointer: activePointerOf(snapshot),
    publicDocument: buildPublicNotice(snapshot, tenantPortalPageUrl(tenant.slug), baseline),
    materialChangeDetected: diff?.hasMaterialChange ?? false,
    at,
  });

  const materialChanges = (diff?.changes ?? [])
    .filter((change) => change.isMaterial)
    .map(({ field, type, isMaterial, newValue }) => ({ field, type, isMaterial, ...(newValue === undefined ? {} : { newValue }) }));
  return {
    id: noticeId,
    status: 'PUBLISHED' as const,
    versionNumber,
    materialChangeDetected: diff?.hasMaterialChange ?? false,
    materialChanges,
    fromVersionNumber: previous?.versionNumber ?? null,
    toVersionNumber: versionNumber,
  };
};
