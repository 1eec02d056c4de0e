import { noticeTextOf, type Notice, type Purpose } from './notice';

/** consentCount comes from the tenant's consent counters (consent/store.ts), which every record updates. */
export const noticeView = (notice: Notice, consentCount: number) => ({
  id: notice.noticeId,
  lineageId: notice.lineageId,
  status: notice.status,
  versionNumber: notice.versionNumber,
  ...noticeTextOf(notice),
  purposeIds: notice.purposeIds,
  purposeConfig: notice.purposeConfig,
  translations: notice.translations,
  consentCount,
  createdAt: notice.createdAt,
  updatedAt: notice.updatedAt,
  publishedAt: notice.publishedAt,
  archivedAt: notice.archivedAt,
});

/**
 * Purposes of a notice in display order, each with its config. A purpose without a config
 * entry is optional and shown after the configured ones, in the order of purposeIds.
 */
export const configuredPurposes = (notice: Pick<Notice, 'purposeIds' | 'purposeConfig'>, purposes: readonly Purpose[]) => {
  const byId = new Map(purposes.map((purpose) => [purpose.purposeId, purpose]));
  return notice.purposeIds
    .map((purposeId, index) => {
      const purpose = byId.get(purposeId);
      const configured = notice.purposeConfig.find((entry) => entry.purposeId === purposeId);
      return purpose
        ? { purpose, isRequired: configured?.isRequired ?? false, displayOrder: configured?.displayOrder ?? 1000 + index }
        : undefined;
    })
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.displayOrder - b.displayOrder);
};

export const noticeDetailView = (notice: Notice, consentCount: number, purposes: readonly Purpose[]) => ({
  ...noticeView(notice, consentCount),
  purposes: configuredPurposes(notice, purposes).map(({ purpose, isRequired, displayOrder }) => ({
    id: purpose.purposeId,
    name: purpose.name,
    description: purpose.description,
    dataCategories: purpose.dataCategories,
    legalBasis: purpose.legalBasis,
    isRequired,
    displayOrder,
  })),
});
