import * as z from 'zod';

/** A bare hostname: no scheme, port or path. Stored lower-case. */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/,
    'a hostname such as shop.example.com, without scheme, port or path',
  );

export const keyIdParams = z.strictObject({ keyId: z.uuid() });
export const domainParams = z.strictObject({ keyId: z.uuid(), domainId: z.uuid() });
export const addDomainBody = z.strictObject({ domain: domainSchema });

export const createdApiKey = z.object({
  keyId: z.uuid(),
  apiKey: z.string().describe('The key itself. Shown only in this response; store it now.'),
  createdAt: z.iso.datetime(),
});

export const maskedApiKey = z.object({
  keyId: z.uuid(),
  maskedKey: z.string().describe('The key with its secret part hidden'),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});

export const allowedDomain = z.object({
  id: z.uuid(),
  domain: z.string(),
  createdAt: z.iso.datetime(),
});
