import * as z from 'zod';

const dataCategory = z.string().trim().min(1).max(100);
const uniqueIds = (max: number, what: string) =>
  z
    .array(z.uuid())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, `each ${what} at most once`);

export const processorRoles = ['PROCESSOR', 'FIDUCIARY'] as const;

/** At most 40 processors an asset: a change of them stays one transaction (asset plus a link update per processor). */
export const maxProcessorsPerAsset = 40;

const assetFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000),
  system: z.string().trim().max(200).describe('Where the data lives, e.g. "orders database"'),
  location: z.string().trim().max(100).describe('Where it is stored or processed, e.g. "IN"'),
  dataCategories: z.array(dataCategory).min(1).max(50),
  purposeIds: uniqueIds(50, 'purpose').describe("The tenant's purposes this asset's data is processed for"),
  processorIds: uniqueIds(maxProcessorsPerAsset, 'processor').describe('The processors and other fiduciaries this data is shared with'),
  retentionDays: z.number().int().min(1).max(36_500).nullable(),
};

export const createAssetBody = z.strictObject({
  name: assetFields.name,
  description: assetFields.description.default(''),
  system: assetFields.system.default(''),
  location: assetFields.location.default(''),
  dataCategories: assetFields.dataCategories,
  purposeIds: assetFields.purposeIds.default([]),
  processorIds: assetFields.processorIds.default([]),
  retentionDays: assetFields.retentionDays.default(null),
});

const atLeastOne = (body: object) => Object.keys(body).length > 0;

export const updateAssetBody = z
  .strictObject({
    name: assetFields.name.optional(),
    description: assetFields.description.optional(),
    system: assetFields.system.optional(),
    location: assetFields.location.optional(),
    dataCategories: assetFields.dataCategories.optional(),
    purposeIds: assetFields.purposeIds.optional(),
    processorIds: assetFields.processorIds.optional(),
    retentionDays: assetFields.retentionDays.optional(),
  })
  .refine(atLeastOne, 'at least one field is required');

export const assetParams = z.strictObject({ assetId: z.uuid() });

export const assetView = z.object({
  assetId: z.uuid(),
  name: z.string(),
  description: z.string(),
  system: z.string(),
  location: z.string(),
  dataCategories: z.array(z.string()),
  purposeIds: z.array(z.uuid()),
  processorIds: z.array(z.uuid()),
  retentionDays: z.number().int().nullable(),
  linkedToPublishedNotice: z.boolean().describe('Extension: one of its purposes is in the published notice, so it cannot be deleted (409 ASSET_LINKED_TO_PUBLISHED_NOTICE)'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const processorFields = {
  name: z.string().trim().min(1).max(200),
  role: z.enum(processorRoles).describe('PROCESSOR: processes on the tenant\'s behalf; FIDUCIARY: another data fiduciary the data is shared with'),
  contactEmail: z.email().max(254).nullable(),
  country: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000),
  lawfulDisclosure: z
    .boolean()
    .describe('true: sharing with an authority under s.11(2) of the DPDP Act (for example a law enforcement request); left out of access summaries'),
};

export const createProcessorBody = z.strictObject({
  name: processorFields.name,
  role: processorFields.role,
  contactEmail: processorFields.contactEmail.default(null),
  country: processorFields.country,
  description: processorFields.description.default(''),
  lawfulDisclosure: processorFields.lawfulDisclosure.default(false),
});

export const updateProcessorBody = z
  .strictObject({
    name: processorFields.name.optional(),
    role: processorFields.role.optional(),
    contactEmail: processorFields.contactEmail.optional(),
    country: processorFields.country.optional(),
    description: processorFields.description.optional(),
    lawfulDisclosure: processorFields.lawfulDisclosure.optional(),
  })
  .refine(atLeastOne, 'at least one field is required');

export const processorParams = z.strictObject({ processorId: z.uuid() });

export const processorView = z.object({
  processorId: z.uuid(),
  name: z.string(),
  role: z.enum(processorRoles),
  contactEmail: z.string().nullable(),
  country: z.string(),
  description: z.string(),
  lawfulDisclosure: z.boolean(),
  linkedAssets: z.number().int().describe('Extension: how many data assets list it; a processor with any cannot be deleted (409 PROCESSOR_HAS_LINKED_ASSETS)'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const deletedView = z.object({ deleted: z.literal(true) });
