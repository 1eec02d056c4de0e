import type * as z from 'zod/v4/core';
import type { limitConfig } from '../config';
import type { ErrorCode } from '../errors';
import type { EdgeCacheName } from './edge-cache';
import type { AccessLevel, StateChangingAccess } from '../roles';

/** The Lambda that serves a route. One esbuild bundle and one function per group. */
export const functionGroups = ['auth', 'api-keys', 'notices', 'consent', 'consent-staff', 'consent-public', 'evidence', 'evidence-verify', 'portal', 'webhooks', 'cmp', 'cmp-public', 'meta', 'breaches', 'rights', 'children', 'retention', 'documents'] as const;
export type FunctionGroup = (typeof functionGroups)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - bearer: dashboard access token; `access` names the level of shared/roles.ts's policy that
 *   decides which roles pass. It is required, so a new route cannot forget it.
 * - apiKey: a tenant API key from `in`; `checkOrigin` applies the domain allowlist to
 *   publishable keys; `secretKey` says whether the tenant's secret (server) keys may call.
 * - none: open.
 */
export type RouteAuth<Access extends AccessLevel = AccessLevel> =
  | {
      kind: 'bearer';
      access: Access;
      /** The spec's role column says "any" here; `access` narrows it (docs/security.md, Roles). */
      narrowsSpec?: true;
    }
  | {
      kind: 'apiKey';
      in: 'body' | 'query' | 'header';
      /** The domain allowlist, for publishable keys (a secret key is refused whenever an Origin comes with it). */
      checkOrigin: boolean;
      /**
       * Whether a secret key (server-to-server) may call the route: required, so a new route
       * decides. Routes that take the key in the URL refuse it (403 FORBIDDEN): URLs are logged.
       */
      secretKey: 'accepted' | 'refused';
    }
  | { kind: 'none' };

export type LimitName = keyof typeof limitConfig.limits;
export type LimitCode = 'RATE_LIMIT' | 'SDK_RATE_LIMIT' | 'CMP_RATE_LIMIT' | 'SCAN_RATE_LIMIT';

/** Whose requests one counter counts (`user`: the dashboard user, within its tenant). */
export type LimitSubject = 'tenant' | 'user' | 'key' | 'ip' | 'keyIp' | 'tenantIp';

export interface RouteLimit {
  limit: LimitName;
  per: LimitSubject;
  code: LimitCode;
}

interface RouteFields {
  /** Spec form, `:name` for parameters. */
  path: string;
  group: FunctionGroup;
  /** Counters checked after authentication; bearer routes also get the per-user share and the per-tenant limit. */
  limits?: readonly RouteLimit[];
  summary: string;
  description?: string;
  tags: readonly string[];
  request?: { body?: z.$ZodType; query?: z.$ZodType; params?: z.$ZodType };
  response: {
    status: number;
    description: string;
    /**
     * The success body's schema, for OpenAPI and the dashboard's types only: no handler validates
     * its answers. So the views named here are `z.lazy` where they are defined, built when the
     * OpenAPI document is generated and never in a function's cold start (docs/bundles.md).
     */
    data?: z.$ZodType;
    /** Response headers, name to description. */
    headers?: Readonly<Record<string, string>>;
    /**
     * Bodies other than the `{ data }` envelope, media type to description (a CSV export, a
     * printable page). Without `data`, the success answer has only these.
     */
    media?: Readonly<Record<string, string>>;
    /** Other success statuses without a body (304), status to description. */
    alternatives?: Readonly<Record<number, string>>;
  };
  /** Every answer, success or error, carries `Cache-Control: no-store`: the path holds a secret (a withdrawal link). */
  noStore?: true;
  /**
   * The edge caches this GET under the named policy (shared/http/edge-cache.ts): its key is the
   * policy's query strings and nothing else of the request, every answer carries the policy's
   * Cache-Control and a strong ETag (If-None-Match → 304), and an API key it takes is read fresh,
   * so the policy's max-age is the whole bound on what a page may see late.
   */
  edgeCache?: EdgeCacheName;
  /** Error codes this route can answer with, beyond those its auth kind implies. */
  errors?: readonly ErrorCode[];
  /**
   * A printed document (group `documents`): this route answers, as a PDF, the page that the route
   * `operationId` of `group` answers with `format=html`, at this route's path less its `/pdf` and by
   * the same method (tests/openapi.test.ts holds the table to that).
   */
  prints?: { operationId: string; group: FunctionGroup };
}

/**
 * A GET route may name any access level; every other method changes state, so a bearer one must
 * be write- or admin-level (a type error otherwise).
 */
export type RouteDefinition =
  | (RouteFields & { method: 'GET'; auth: RouteAuth })
  | (RouteFields & { method: Exclude<HttpMethod, 'GET'>; auth: RouteAuth<StateChangingAccess> });

/**
 * A description joined from shared passages, called as `/* @__PURE__ *\/ prose(…)`. A route object
 * that esbuild cannot prove free of side effects is kept in every bundle importing its module, read
 * or not, and with it the request schemas it names: one holding a `${…}` (it might call a
 * toString), a spread, or a call without that annotation (`/* @__PURE__ *\/ z.array(…)`; esbuild
 * does not carry a function's own annotation across modules). Held so, a function's bundle holds
 * only its own group's routes, in a module whose routes span groups too (tests/infra/stack.test.ts
 * checks every bundle), and builds no other group's schemas on a cold start.
 */
export function prose(...passages: string[]): string {
  return passages.join('');
}

/** `/api/v1/things/:id` → `/api/v1/things/{id}`, the form API Gateway and OpenAPI use. */
export const bracedPath = (path: string): string => path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, '{$1}');

/** API Gateway's route key, also set by the local server, so handlers dispatch on one value. */
export const routeKeyOf = (route: Pick<RouteDefinition, 'method' | 'path'>): string =>
  `${route.method} ${bracedPath(route.path)}`;
