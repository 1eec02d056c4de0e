import * as z from 'zod';
import { legalBases } from '../notices/notice';

const dataCategory = z.string().trim().min(1).max(100);

export const purposeFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(1000),
  dataCategories: z.array(dataCategory).min(1).max(50),
  legalBasis: z.enum(legalBases),
};

export const createPurposeBody = z.strictObject({
  ...purposeFields,
  legalBasis: purposeFields.legalBasis.default('CONSENT'),
});

export const updatePurposeBody = z
  .strictObject({
    name: purposeFields.name.optional(),
    description: purposeFields.description.optional(),
    dataCategories: purposeFields.dataCategories.optional(),
    legalBasis: purposeFields.legalBasis.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'at least one field is required');

export const purposeIdParams = z.strictObject({ id: z.uuid() });

export const purposeView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  dataCategories: z.array(z.string()),
  legalBasis: z.enum(legalBases),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
