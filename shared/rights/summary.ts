import type * as z from 'zod/mini';
import { clock } from '../clock';
import type { ConsentRecord } from '../consent/record';
import { principalRecords } from '../consent/store';
import type { DataAsset, Processor } from '../data-map/data-map';
import { listAssets, listProcessors } from '../data-map/store';
import type { Purpose } from '../notices/notice';
import { getPurposes } from '../purposes/store';
import type { Tenant } from '../tenants/tenant';
import { dpoContactOf } from './mails';
import type { accessSummary } from './schemas';
import { nomineesOf, type NomineeRecord } from './store';

export type AccessSummary = z.output<typeof accessSummary>;

/** Purposes the principal granted in any record: the data behind them may be held, withdrawn or not. */
export const consentedPurposeIds = (records: readonly ConsentRecord[]): Set<string> =>
  new Set(records.flatMap((record) => Object.entries(record.consentGiven).filter(([, granted]) => granted).map(([purposeId]) => purposeId)));

/** The data map's assets that process the principal's data: those of the purposes they consented to. */
export const assetsOfPurposes = (assets: readonly DataAsset[], purposeIds: ReadonlySet<string>): DataAsset[] =>
  assets.filter((asset) => asset.purposeIds.some((id) => purposeIds.has(id))).sort((a, b) => a.name.localeCompare(b.name));

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The s.11 summary, from what was read: each consent record (notice and version, language,
 * purposes granted and withdrawn, when), per purpose consented to its data categories and the
 * assets that process them, every processor and fiduciary the data goes to through those assets
 * with the categories it gets, except disclosures to authorities (lawfulDisclosure, s.11(2)), and
 * the nominees. Pure: the same inputs give the same summary.
 */
export const assembleSummary = (input: {
  principalHash: string;
  tenant: Pick<Tenant, 'name'>;
  dpoContact: string | null;
  records: readonly ConsentRecord[];
  purposes: readonly Purpose[];
  assets: readonly DataAsset[];
  processors: readonly Processor[];
  nominees: readonly NomineeRecord[];
  generatedAt: string;
}): AccessSummary => {
  const purposeById = new Map(input.purposes.map((purpose) => [purpose.purposeId, purpose]));
  const named = (purposeId: string) => ({ purposeId, name: purposeById.get(purposeId)?.name ?? purposeId });
  const consented = consentedPurposeIds(input.records);
  const assets = assetsOfPurposes(input.assets, consented);
  const processorById = new Map(input.processors.map((processor) => [processor.processorId, processor]));
  const sharedCategories = new Map<string, string[]>();
  for (const asset of assets) {
    for (const processorId of asset.processorIds) sharedCategories.set(processorId, [...(sharedCategories.get(processorId) ?? []), ...asset.dataCategories]);
  }
  return {
    principalHash: input.principalHash,
    generatedAt: input.generatedAt,
    tenant: { name: input.tenant.name },
    dpoContact: input.dpoContact,
    records: [...input.records]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((record) => {
        const granted = Object.entries(record.consentGiven).filter(([, given]) => given).map(([purposeId]) => purposeId);
        const withdrawn = record.isWithdrawn ? granted : record.withdrawnPurposes;
        return {
          consentRecordId: record.recordId,
          noticeId: record.noticeId,
          noticeTitle: record.noticeTitle,
          noticeVersion: record.noticeVersionNumber,
          language: record.languageShown,
          givenAt: record.createdAt,
          purposesGranted: granted.map(named),
          purposesWithdrawn: withdrawn.map(named),
          fullyWithdrawn: record.isWithdrawn,
          withdrawnAt: record.withdrawnAt,
        };
      }),
    purposes: [...consented]
      .map((purposeId) => ({
        ...named(purposeId),
        dataCategories: purposeById.get(purposeId)?.dataCategories ?? [],
        assets: assets
          .filter((asset) => asset.purposeIds.includes(purposeId))
          .map(({ assetId, name, system, location, dataCategories, retentionDays }) => ({ assetId, name, system, location, dataCategories, retentionDays })),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    sharedWith: [...sharedCategories]
      .flatMap(([processorId, categories]) => {
        const processor = processorById.get(processorId);
        if (!processor || processor.lawfulDisclosure) return [];
        return [{ processorId, name: processor.name, role: processor.role, country: processor.country, contactEmail: processor.contactEmail, dataCategories: sorted(categories) }];
      })
      .sort((a, b) => a.name.localeCompare(b.name)),
    nominees: [...input.nominees].sort((a, b) => a.nominatedAt.localeCompare(b.nominatedAt)).map(({ name, relationship, nominatedAt }) => ({ name, relationship, nominatedAt })),
  };
};

/** Reads what the summary of one principal needs: their records, the purposes named in them, the data map and their nominees. */
export const accessSummaryOf = async (tenant: Tenant, principalHash: string): Promise<AccessSummary> => {
  const [records, assets, processors, nominees, dpoContact] = await Promise.all([
    principalRecords(tenant.tenantId, principalHash),
    listAssets(tenant.tenantId),
    listProcessors(tenant.tenantId),
    nomineesOf(tenant.tenantId, principalHash),
    dpoContactOf(tenant),
  ]);
  const purposes = await getPurposes(tenant.tenantId, sorted(records.flatMap((record) => Object.keys(record.consentGiven))));
  return assembleSummary({ principalHash, tenant, dpoContact, records, purposes, assets, processors, nominees, generatedAt: clock.now().toISOString() });
};
