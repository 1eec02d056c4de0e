import * as z from 'zod/mini';
import { described } from '../described';
import { legalBases } from '../notices/notice';
import { retentionSchema, thirdScheduleExceptionSchema } from '../retention/schemas';

const childProhibited = /* @__PURE__ */ (() => described(z.boolean(), 'Extension (s.9(3)): the purpose is tracking, behavioural monitoring or targeted advertising. A child\'s or guarded person\'s consent to it is 400 VALIDATION_ERROR naming it, and the widget never offers it to a child'))();

const dataCategory = /* @__PURE__ */ (() => z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))();

export const purposeFields = {
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
  dataCategories: z.array(dataCategory).check(z.minLength(1), z.maxLength(50)),
  legalBasis: z.enum(legalBases),
};

export const createPurposeBody = /* @__PURE__ */ (() => z.strictObject({
  ...purposeFields,
  legalBasis: z._default(purposeFields.legalBasis, 'CONSENT'),
  childProhibited: z._default(childProhibited, false),
  retention: z.optional(z.nullable(retentionSchema)),
  thirdScheduleException: z.optional(thirdScheduleExceptionSchema),
}))();

export const updatePurposeBody = /* @__PURE__ */ (() => z.strictObject({
    name: z.optional(purposeFields.name),
    description: z.optional(purposeFields.description),
    dataCategories: z.optional(purposeFields.dataCategories),
    legalBasis: z.optional(purposeFields.legalBasis),
    childProhibited: z.optional(childProhibited),
    retention: z.optional(described(z.nullable(retentionSchema), 'null removes the retention')),
    thirdScheduleException: z.optional(thirdScheduleExceptionSchema),
  }).check(z.refine((body) => Object.keys(body).length > 0, 'at least one field is required')))();

export const purposeIdParams = /* @__PURE__ */ (() => z.strictObject({ id: z.uuid() }))();

export const purposeView = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  dataCategories: z.array(z.string()),
  legalBasis: z.enum(legalBases),
  childProhibited,
  retention: z.nullable(retentionSchema),
  thirdScheduleException: thirdScheduleExceptionSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}));
