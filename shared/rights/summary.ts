import type * as z from 'zod/mini';
import { clock } from '../clock';
import type { ConsentRecord } from '../consent/record';
import { principalRecords } from '../consent/store';
import type { DataAsset, Processor } from '../data-map/data-map';
import { listAssets, listProcessors } from '../data-map/store';
import type { Purpose } from '../notices/notice';
import { getPurposes } from '../purposes/store';
import type { Tenant } from '../tenants/tenant';
import { dpoContactOf } from '../notices/dpo-contact';
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
 * The purposes the principal's data is used for now, each with its lawful basis: those whose
 * latest record (the newest that names the purpose) grants it and has not withdrawn it, under
 * consent; and those the tenant processes under a legitimate use (s.7), whatever the consent says,
 * stated as such. A withdrawn purpose of consent is not a current use.
 */
export const currentPurposes = (records: readonly ConsentRecord[], purposes: ReadonlyMap<string, Pick<Purpose, 'legalBasis'>>): Map<string, Purpose['legalBasis']> => {
  const latest = new Map<string, ConsentRecord>();
  for (const record of [...records].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) for (const purposeId of Object.keys(record.consentGiven)) latest.set(purposeId, record);
  const current = new Map<string, Purpose['legalBasis']>();
  for (const [purposeId, record] of latest) {
    if (purposes.get(purposeId)?.legalBasis === 'LEGITIMATE_USE') current.set(purposeId, 'LEGITIMATE_USE');
    else if (record.consentGiven[purposeId] && !record.isWithdrawn && !record.withdrawnPurposes.includes(purposeId)) current.set(purposeId, 'CONSENT');
  }
  return current;
};

/**
 * The s.11 summary, from what was read: each consent record (notice and version, language,
 * purposes granted and withdrawn, when), per purpose the data is used for now (currentPurposes,
 * with its lawful basis) its data categories and the assets that process them, every processor and
 * fiduciary the data has gone to through the assets of any purpose consented to, with the
 * categories it gets, except disclosures to authorities (lawfulDisclosure, s.11(2)), and the
 * nominees. Pure: the same inputs give the same summary.
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
  const current = currentPurposes(input.records, purposeById);
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
    purposes: [...current]
      .map(([purposeId, lawfulBasis]) => ({
        ...named(purposeId),
        lawfulBasis,
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
