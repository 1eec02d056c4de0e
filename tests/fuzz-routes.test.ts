import fc from 'fast-check';
import * as z from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { newTenant, useApi } from './support/api';
import { tenantDigest } from './support/storage';

/**
 * Property-based fuzzing of every route in the route table, through the real local server:
 * bodies, queries and path parameters built from each route's own schemas and then broken (wrong
 * types, prototype-named keys at any depth, huge and odd unicode strings, missing and extra
 * fields). The property: never a 5xx; every 4xx is the spec's envelope with a request id; and a
 * rejected request stores nothing. A fixed seed and few runs in `npm test`; longer on demand:
 * `FUZZ_RUNS=200 FUZZ_SEED=7 npx vitest run tests/fuzz-routes.test.ts`.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 6);
const seed = Number(process.env.FUZZ_SEED ?? 20261124);

// The limits are not under test here (they have their own tests); the fuzzer must not trip them.
Object.assign(process.env, {
  RATE_LIMIT_BEARER_PER_MINUTE: '1000000',
  RATE_LIMIT_SDK_PER_KEY_PER_MINUTE: '1000000',
  RATE_LIMIT_SDK_ABUSE_PER_KEY_PER_MINUTE: '1000000',
  RATE_LIMIT_SDK_PER_KEY_IP_PER_MINUTE: '1000000',
  RATE_LIMIT_CMP_WEB_EVENT_PER_MINUTE: '1000000',
  RATE_LIMIT_CMP_CONSENT_STATUS_PER_MINUTE: '1000000',
  RATE_LIMIT_CMP_SERVER_EVENT_PER_MINUTE: '1000000',
  RATE_LIMIT_CMP_DRAFT_ALL_PER_DAY: '1000000',
  RATE_LIMIT_CMP_SCAN_PER_10_MINUTES: '1000000',
  RATE_LIMIT_WITHDRAW_PUBLIC_PER_HOUR: '1000000',
  RATE_LIMIT_LOGIN_PER_IP_PER_MINUTE: '1000000',
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_PER_15_MINUTES: '1000000',
  WITHDRAW_PUBLIC_MIN_MS: '0',
});

const { call } = useApi();
let tenant: Awaited<ReturnType<typeof newTenant>>;
let apiKey = '';
beforeAll(async () => {
  tenant = await newTenant(call);
  apiKey = await tenant.apiKey();
});

const prototypeKeys = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'isPrototypeOf'];

/** Strings that break naive code: huge, lone surrogates, RTL and zero-width marks, NUL, percent signs. */
const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\uD800', '\uDFFF', '\u202E\u0645\u0631\u062D\u0628\u0627', '\u200B', '\u0000', '%', '%C0%AF', '../..', 'नमस्ते', ''),
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => 'x'.repeat(length)),
);

const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    oddString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...prototypeKeys)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Never a URL that could make the service connect anywhere but here (webhook and scan URLs). */
const defang = (value: unknown): unknown => {
  if (typeof value === 'string') return /^\s*[a-z][a-z0-9+.-]*:/i.test(value) ? 'not-a-url' : value;
  if (Array.isArray(value)) return value.map(defang);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, defang(inner)]));
  return value;
};

/** JSON text of an object with extra own keys spliced in (JSON.stringify cannot write an own __proto__). */
const jsonWith = (value: Record<string, unknown>, extra: [string, unknown][]): string => {
  const base = JSON.stringify(value);
  const added = extra.map(([key, inner]) => `${JSON.stringify(key)}:${JSON.stringify(inner)}`).join(',');
  if (!added) return base;
  return base === '{}' ? `{${added}}` : `${base.slice(0, -1)},${added}}`;
};

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** A route schema as JSON Schema (zod's own conversion), or undefined where zod cannot say. */
const jsonSchemaOf = (schema: z.core.$ZodType | undefined): JsonSchema | undefined => {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return undefined;
  }
};

/**
 * Values a schema accepts, or close to it (refinements are not in JSON Schema): the base that
 * mutations then break one thing in, so a single fault is what the service has to catch. URLs
 * only ever point at loopback port 9 (discard), so nothing is sent anywhere else.
 */
const valid = (schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> => {
  if (!schema || depth > 4) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => valid(choice, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid({ version: 4 });
      if (schema.format === 'email') return fc.constant('fuzz.principal@example.com');
      if (schema.format === 'uri') return fc.constant('http://127.0.0.1:9/fuzz');
      if (schema.format === 'date-time') return fc.constant(new Date().toISOString());
      if (schema.pattern && !/\(\?[=!<]/.test(schema.pattern)) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? 10_000));
      const min = schema.minLength ?? 0;
      return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(min, Math.min(schema.maxLength ?? 40, 40)) }).map((text) => text.trim().padEnd(min, 'x') || 'x');
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 100 });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 100, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = valid(property, depth + 1);
      const base = fc.record(record, { requiredKeys: [...required].filter((name) => name in properties) });
      const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (!extra || Object.keys(properties).length > 0) return base;
      return fc.dictionary(fc.uuid({ version: 4 }), valid(extra, depth + 1), { maxKeys: 3 });
    }
    default:
      return anyValue;
  }
};

type Mutation = { kind: 'none' } | { kind: 'prototypeKey'; key: string; nested: boolean } | { kind: 'replace'; value: unknown; pick: number } | { kind: 'drop'; pick: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('prototypeKey' as const), key: fc.constantFrom(...prototypeKeys), nested: fc.boolean() }),
  fc.record({ kind: fc.constant('replace' as const), value: anyValue, pick: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
);

/** The body as JSON text with the mutation applied (own `__proto__` keys need hand-written JSON). */
const mutatedJson = (body: Record<string, unknown>, change: Mutation): string => {
  const names = Object.keys(body);
  const name = names.length > 0 && 'pick' in change ? names[change.pick % names.length]! : undefined;
  if (change.kind === 'replace' && name) return JSON.stringify({ ...body, [name]: defang(change.value) });
  if (change.kind === 'drop' && name) return JSON.stringify(Object.fromEntries(Object.entries(body).filter(([key]) => key !== name)));
  if (change.kind !== 'prototypeKey') return JSON.stringify(body);
  const nestedName = change.nested ? names.find((key) => body[key] !== null && typeof body[key] === 'object' && !Array.isArray(body[key])) : undefined;
  if (nestedName) return JSON.stringify({ ...body, [nestedName]: '@@nested@@' }).replace('"@@nested@@"', jsonWith(body[nestedName] as Record<string, unknown>, [[change.key, 1]]));
  return jsonWith(body, [[change.key, 1]]);
};

/** A path segment from any text: a lone surrogate cannot be percent-encoded (encodeURIComponent throws), so it becomes its raw escape. */
const pathSegment = (text: string): string => {
  try {
    return encodeURIComponent(text).slice(0, 1000) || 'x';
  } catch {
    return '%ED%A0%80';
  }
};

const requestOf = (route: RouteDefinition) => {
  const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
  const query = jsonSchemaOf(route.request?.query);
  return fc.record({
    body: valid(jsonSchemaOf(route.request?.body) ?? { type: 'object' }),
    change: mutation,
    query: fc.oneof(valid(query ?? { type: 'object' }), fc.dictionary(fc.constantFrom(...Object.keys(query?.properties ?? { q: {} })), anyValue, { maxKeys: 3 })),
    params: fc.tuple(
      ...params.map(() => fc.oneof(fc.uuid({ version: 4 }), fc.constantFrom('EN', 'HI', 'UR'), oddString.map(pathSegment), fc.constantFrom('%', '%E0%A4', '%00'))),
    ),
    rawBody: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', '1e999', '{"a":') }),
  });
};

/**
 * The tenant's stored state as last read, while nothing has changed it since: a rejected request
 * leaves the digest it was checked against, so the next request need not read the partition again
 * (reading the whole tenant partition from DynamoDB Local was most of this file's time).
 */
let known: string | undefined;

/**
 * The words and cookie-banner writes last: what they accept (labels in every language) makes the
 * tenant's partition about a megabyte, which every later digest would read.
 */
const growsPartition = (route: RouteDefinition): boolean => route.method !== 'GET' && /^\/api\/v1\/(words|cmp)\//.test(route.path);
const fuzzOrder = [...routeList.filter((route) => !growsPartition(route)), ...routeList.filter(growsPartition)];

describe('fuzzing every route', () => {
  for (const route of fuzzOrder) {
    it(`${route.method} ${route.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestOf(route), async (generated) => {
          let path = route.path;
          for (const value of generated.params as string[]) path = path.replace(/:[A-Za-z]+/, value);
          const body = { ...(defang(generated.body) as Record<string, unknown>) };
          if (route.auth.kind === 'apiKey' && route.auth.in === 'body') body.apiKey = apiKey;
          const search = new URLSearchParams();
          // API Gateway refuses URLs past about 8 KB before any code runs, so query values stay short.
          for (const [name, value] of Object.entries(defang(generated.query) as Record<string, unknown>)) {
            search.set(name, (typeof value === 'string' ? value : JSON.stringify(value) ?? '').slice(0, 1000));
          }
          if (route.auth.kind === 'apiKey' && route.auth.in === 'query') search.set('apiKey', apiKey);
          const headers: Record<string, string> = { origin: 'http://localhost' };
          if (route.auth.kind === 'apiKey' && route.auth.in === 'header') headers['x-api-key'] = apiKey;
          const before = known ?? (await tenantDigest(tenant.tenantId));
          known = undefined;
          const response = await call(route.method, `${path}${search.size ? `?${search}` : ''}`, {
            token: route.auth.kind === 'bearer' ? tenant.token : undefined,
            headers,
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : { rawBody: generated.rawBody ?? mutatedJson(body, generated.change) }),
          }).catch((error: unknown) => ({ status: 599, body: { error: String(error) }, headers: new Headers() }));
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          // A prototype-named key is refused, wherever it is (the old bypass answered 201 or 500).
          if (generated.change.kind === 'prototypeKey' && route.request?.body && !generated.rawBody) expect(response.status).toBe(400);
          if (response.status >= 400) {
            const { error } = response.body as { error: { code: unknown; message: unknown; fields?: unknown } };
            expect(typeof error.code).toBe('string');
            expect(typeof error.message).toBe('string');
            if (error.code !== 'VALIDATION_ERROR') expect(error).not.toHaveProperty('fields');
            expect(response.headers.get('x-request-id')).toBeTruthy();
            expect(await tenantDigest(tenant.tenantId), 'a rejected request changed what is stored').toBe(before);
            known = before;
          }
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    }, 120_000);
  }
});
