import { describe, expect, it } from 'vitest';
import { routeList } from '../shared/http/routes';

type Schema = { _zod: { def: { type: string; element?: Schema; innerType?: Schema } } };

/** Through arrays, nullables and optionals to the schema a route's data names. */
const named = (schema: Schema): Schema => {
  const { def } = schema._zod;
  if (def.type === 'array') return named(def.element!);
  if (def.type === 'nullable' || def.type === 'optional') return named(def.innerType!);
  return schema;
};

/**
 * Routes whose success view is still built at import: objects written in the route file itself,
 * and views other views extend (z.extend needs the object itself: configView,
 * labelSetView, scanRunView, recordResult, checkpointSchema, breachSummaryView,
 * accessSummary, the rights requestPage). A new route's view is z.lazy where it
 * is defined (fields several views share are a function each calls, as notices/schemas.ts noticeShape),
 * or it joins this list with a reason.
 */
const builtAtImport = [
  'recordConsent', 'logCheckpoint', 'testWebhook', 'verifySdkKey', 'saveCmpConfig', 'listCmpTranslations', 'draftCmpTranslation',
  'saveCmpTranslation', 'listCmpScanRuns', 'createBreach', 'listBreaches', 'intimateBreachPrincipals', 'listRightsRequests', 'getRightsRequestSummary',
];

describe('response views', () => {
  it('are z.lazy where they are defined, so no cold start builds them (they serve OpenAPI and the dashboard types only)', () => {
    const eager = routeList.filter((route) => route.response.data && named(route.response.data as unknown as Schema)._zod.def.type !== 'lazy').map((route) => route.operationId);
    expect(eager.sort()).toEqual([...builtAtImport].sort());
    expect(routeList.filter((route) => route.response.data).length - eager.length).toBeGreaterThan(100);
  });
});
