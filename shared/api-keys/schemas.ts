import * as z from 'zod/mini';
import { described } from '../described';

/** A bare hostname: no scheme, port or path. Stored lower-case. */
export const domainSchema = /* @__PURE__ */ (() => z.string().check(z.trim(), z.toLowerCase(), z.maxLength(253), z.regex(/^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/, 'a hostname such as shop.example.com, without scheme, port or path')))();

/**
 * Two kinds of key (an extension: the spec's one key is the publishable kind).
 * - publishable: embedded in the tenant's pages (the widget), checked against the origin
 *   allowlist; it names the tenant and proves nothing about who is calling.
 * - secret: for the tenant's own servers only; never in a page, refused from a browser.
 */
export const apiKeyKinds = ['publishable', 'secret'] as const;
export type ApiKeyKind = (typeof apiKeyKinds)[number];

const kindSchema = /* @__PURE__ */ (() => described(z.enum(apiKeyKinds), 'publishable: for pages (the widget), origin allowlist, never a raw identifier. secret (cms_sk_…): for your servers only, refused from a browser, may send identifier and signs identifierHash'))();

export const createApiKeyBody = /* @__PURE__ */ (() => z.strictObject({ kind: z._default(kindSchema, 'publishable') }))();

export const keyIdParams = /* @__PURE__ */ (() => z.strictObject({ keyId: z.uuid() }))();
export const domainParams = /* @__PURE__ */ (() => z.strictObject({ keyId: z.uuid(), domainId: z.uuid() }))();
export const addDomainBody = /* @__PURE__ */ (() => z.strictObject({ domain: domainSchema }))();

export const createdApiKey = /* @__PURE__ */ z.lazy(() => z.object({
  keyId: z.uuid(),
  kind: kindSchema,
  apiKey: described(z.string(), 'The key itself. Shown only in this response; store it now.'),
  createdAt: z.iso.datetime(),
}));

export const maskedApiKey = /* @__PURE__ */ z.lazy(() => z.object({
  keyId: z.uuid(),
  kind: kindSchema,
  maskedKey: described(z.string(), 'The key with its secret part hidden'),
  createdAt: z.iso.datetime(),
  revokedAt: z.nullable(z.iso.datetime()),
}));

export const allowedDomain = /* @__PURE__ */ z.lazy(() => z.object({
  id: z.uuid(),
  domain: z.string(),
  createdAt: z.iso.datetime(),
}));
