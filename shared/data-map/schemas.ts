import * as z from 'zod/mini';
import { described } from '../described';

const dataCategory = /* @__PURE__ */ (() => z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))();
const uniqueIds = (max: number, what: string) =>
  z.array(z.uuid()).check(z.maxLength(max), z.refine((ids) => new Set(ids).size === ids.length, `each ${what} at most once`));

export const processorRoles = ['PROCESSOR', 'FIDUCIARY'] as const;

/** At most 40 processors an asset: a change of them stays one transaction (asset plus a link update per processor). */
export const maxProcessorsPerAsset = 40;

const assetFields = {
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.trim(), z.maxLength(2000)),
  system: described(z.string().check(z.trim(), z.maxLength(200)), 'Where the data lives, e.g. "orders database"'),
  location: described(z.string().check(z.trim(), z.maxLength(100)), 'Where it is stored or processed, e.g. "IN"'),
  dataCategories: z.array(dataCategory).check(z.minLength(1), z.maxLength(50)),
  purposeIds: described(uniqueIds(50, 'purpose'), "The tenant's purposes this asset's data is processed for"),
  processorIds: described(uniqueIds(maxProcessorsPerAsset, 'processor'), 'The processors and other fiduciaries this data is shared with'),
  retentionDays: z.nullable(z.number().check(z.int(), z.gte(1), z.lte(36_500))),
};

export const createAssetBody = /* @__PURE__ */ (() => z.strictObject({
  name: assetFields.name,
  description: z._default(assetFields.description, ''),
  system: z._default(assetFields.system, ''),
  location: z._default(assetFields.location, ''),
  dataCategories: assetFields.dataCategories,
  purposeIds: z._default(assetFields.purposeIds, []),
  processorIds: z._default(assetFields.processorIds, []),
  retentionDays: z._default(assetFields.retentionDays, null),
}))();

const atLeastOne = (body: object) => Object.keys(body).length > 0;

export const updateAssetBody = /* @__PURE__ */ (() => z.strictObject({
    name: z.optional(assetFields.name),
    description: z.optional(assetFields.description),
    system: z.optional(assetFields.system),
    location: z.optional(assetFields.location),
    dataCategories: z.optional(assetFields.dataCategories),
    purposeIds: z.optional(assetFields.purposeIds),
    processorIds: z.optional(assetFields.processorIds),
    retentionDays: z.optional(assetFields.retentionDays),
  }).check(z.refine(atLeastOne, 'at least one field is required')))();

export const assetParams = /* @__PURE__ */ (() => z.strictObject({ assetId: z.uuid() }))();

export const assetView = /* @__PURE__ */ z.lazy(() => z.object({
  assetId: z.uuid(),
  name: z.string(),
  description: z.string(),
  system: z.string(),
  location: z.string(),
  dataCategories: z.array(z.string()),
  purposeIds: z.array(z.uuid()),
  processorIds: z.array(z.uuid()),
  retentionDays: z.nullable(z.number().check(z.int())),
  linkedToPublishedNotice: described(z.boolean(), 'Extension: one of its purposes is in the published notice, so it cannot be deleted (409 ASSET_LINKED_TO_PUBLISHED_NOTICE)'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}));

const processorFields = {
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  role: described(z.enum(processorRoles), 'PROCESSOR: processes on the tenant\'s behalf; FIDUCIARY: another data fiduciary the data is shared with'),
  contactEmail: z.nullable(z.email().check(z.maxLength(254))),
  country: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  description: z.string().check(z.trim(), z.maxLength(2000)),
  lawfulDisclosure: described(z.boolean(), 'true: sharing with an authority under s.11(2) of the DPDP Act (for example a law enforcement request); left out of access summaries'),
};

export const createProcessorBody = /* @__PURE__ */ (() => z.strictObject({
  name: processorFields.name,
  role: processorFields.role,
  contactEmail: z._default(processorFields.contactEmail, null),
  country: processorFields.country,
  description: z._default(processorFields.description, ''),
  lawfulDisclosure: z._default(processorFields.lawfulDisclosure, false),
}))();

export const updateProcessorBody = /* @__PURE__ */ (() => z.strictObject({
    name: z.optional(processorFields.name),
    role: z.optional(processorFields.role),
    contactEmail: z.optional(processorFields.contactEmail),
    country: z.optional(processorFields.country),
    description: z.optional(processorFields.description),
    lawfulDisclosure: z.optional(processorFields.lawfulDisclosure),
  }).check(z.refine(atLeastOne, 'at least one field is required')))();

export const processorParams = /* @__PURE__ */ (() => z.strictObject({ processorId: z.uuid() }))();

export const processorView = /* @__PURE__ */ z.lazy(() => z.object({
  processorId: z.uuid(),
  name: z.string(),
  role: z.enum(processorRoles),
  contactEmail: z.nullable(z.string()),
  country: z.string(),
  description: z.string(),
  lawfulDisclosure: z.boolean(),
  linkedAssets: described(z.number().check(z.int()), 'Extension: how many data assets list it; a processor with any cannot be deleted (409 PROCESSOR_HAS_LINKED_ASSETS)'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}));

export const deletedView = /* @__PURE__ */ z.lazy(() => z.object({ deleted: z.literal(true) }));
