import type { BodyOf, DataOf, OperationId, ParamsOf, QueryOf, Routes } from '../../../shared/http/api-types';

/**
 * The typed API client. Request and response types come from the route table's zod schemas
 * (type-only imports: no zod in the bundle); the method and path of each operation the dashboard
 * uses are listed here once and checked against the route table by `satisfies`.
 */
const endpoints = {
  login: ['POST', '/api/v1/auth/login'],
  refresh: ['POST', '/api/v1/auth/refresh'],
  logout: ['POST', '/api/v1/auth/logout'],
  consentAnalytics: ['GET', '/api/v1/consent/analytics'],
  listConsentRecords: ['GET', '/api/v1/consent/records'],
  consentProof: ['GET', '/api/v1/consent/records/:id/proof'],
  createEvidencePack: ['POST', '/api/v1/consent/evidence-packs'],
  printEvidencePack: ['POST', '/api/v1/consent/evidence-packs/pdf'],
  exportConsentRecords: ['GET', '/api/v1/consent/records/export'],
  listComplianceTasks: ['GET', '/api/v1/compliance-tasks'],
  completeComplianceTask: ['POST', '/api/v1/compliance-tasks/:id/complete'],
  createWithdrawalToken: ['POST', '/api/v1/consent/withdrawal-token'],
  getConsentSettings: ['GET', '/api/v1/consent/settings'],
  saveConsentSettings: ['PUT', '/api/v1/consent/settings'],
  listConsentSettingsChanges: ['GET', '/api/v1/consent/settings/changes'],
  listNotices: ['GET', '/api/v1/notices'],
  getNotice: ['GET', '/api/v1/notices/:id'],
  getActiveNotice: ['GET', '/api/v1/notices/active'],
  createNotice: ['POST', '/api/v1/notices'],
  updateNotice: ['PUT', '/api/v1/notices/:id'],
  publishNotice: ['POST', '/api/v1/notices/:id/publish'],
  reviseNotice: ['POST', '/api/v1/notices/:id/revise'],
  listNoticeVersions: ['GET', '/api/v1/notices/:id/versions'],
  diffNoticeVersions: ['GET', '/api/v1/notices/:id/versions/diff'],
  addNoticeTranslation: ['POST', '/api/v1/notices/:id/translations'],
  updateNoticeTranslation: ['PUT', '/api/v1/notices/:id/translations/:lang'],
  autoTranslateNotice: ['POST', '/api/v1/notices/:id/auto-translate'],
  previewNotice: ['GET', '/api/v1/notices/:id/preview'],
  listPurposes: ['GET', '/api/v1/purposes'],
  createPurpose: ['POST', '/api/v1/purposes'],
  updatePurpose: ['PUT', '/api/v1/purposes/:id'],
  getCmpAnalytics: ['GET', '/api/v1/cmp/analytics'],
  getCmpPublicConfig: ['GET', '/api/v1/cmp/config/:tenantId'],
  saveCmpConfig: ['PUT', '/api/v1/cmp/config'],
  listCmpTrackers: ['GET', '/api/v1/cmp/trackers'],
  upsertCmpTrackers: ['PUT', '/api/v1/cmp/trackers'],
  deleteCmpTracker: ['DELETE', '/api/v1/cmp/trackers'],
  listCmpTranslations: ['GET', '/api/v1/cmp/translations'],
  draftCmpTranslation: ['POST', '/api/v1/cmp/translations/draft'],
  draftAllCmpTranslations: ['POST', '/api/v1/cmp/translations/draft-all'],
  saveCmpTranslation: ['PUT', '/api/v1/cmp/translations/:language'],
  startCmpScan: ['POST', '/api/v1/cmp/scan-now'],
  listCmpScanRuns: ['GET', '/api/v1/cmp/scan-runs'],
  getCmpScanRun: ['GET', '/api/v1/cmp/scan-runs/:scanRunId'],
  listApiKeys: ['GET', '/api/v1/api-keys'],
  createApiKey: ['POST', '/api/v1/api-keys'],
  revokeApiKey: ['DELETE', '/api/v1/api-keys/:keyId'],
  listDomains: ['GET', '/api/v1/api-keys/:keyId/domains'],
  addDomain: ['POST', '/api/v1/api-keys/:keyId/domains'],
  removeDomain: ['DELETE', '/api/v1/api-keys/:keyId/domains/:domainId'],
  listWebhooks: ['GET', '/api/v1/webhooks'],
  createWebhook: ['POST', '/api/v1/webhooks'],
  updateWebhook: ['PUT', '/api/v1/webhooks/:id'],
  deleteWebhook: ['DELETE', '/api/v1/webhooks/:id'],
  listWebhookDeliveries: ['GET', '/api/v1/webhooks/:id/deliveries'],
  testWebhook: ['POST', '/api/v1/webhooks/:id/test'],
  listUsers: ['GET', '/api/v1/users'],
  inviteUser: ['POST', '/api/v1/users'],
  removeUser: ['DELETE', '/api/v1/users/:userId'],
  setPassword: ['POST', '/api/v1/auth/set-password'],
  listBreaches: ['GET', '/api/v1/breaches'],
  createBreach: ['POST', '/api/v1/breaches'],
  getBreach: ['GET', '/api/v1/breaches/:breachId'],
  updateBreach: ['PUT', '/api/v1/breaches/:breachId'],
  intimateBreachPrincipals: ['POST', '/api/v1/breaches/:breachId/principal-intimation'],
  previewBreachIntimation: ['POST', '/api/v1/breaches/:breachId/principal-intimation/preview'],
  fileBoardIntimation: ['POST', '/api/v1/breaches/:breachId/board-intimation'],
  fileBoardReport: ['POST', '/api/v1/breaches/:breachId/board-report'],
  getBoardReport: ['GET', '/api/v1/breaches/:breachId/board-report'],
  printBoardReport: ['GET', '/api/v1/breaches/:breachId/board-report/pdf'],
  extendBreach: ['POST', '/api/v1/breaches/:breachId/extension'],
  closeBreach: ['POST', '/api/v1/breaches/:breachId/close'],
  listDataAssets: ['GET', '/api/v1/data-assets'],
  createDataAsset: ['POST', '/api/v1/data-assets'],
  updateDataAsset: ['PUT', '/api/v1/data-assets/:assetId'],
  deleteDataAsset: ['DELETE', '/api/v1/data-assets/:assetId'],
  listProcessors: ['GET', '/api/v1/processors'],
  createProcessor: ['POST', '/api/v1/processors'],
  updateProcessor: ['PUT', '/api/v1/processors/:processorId'],
  deleteProcessor: ['DELETE', '/api/v1/processors/:processorId'],
  listRightsRequests: ['GET', '/api/v1/rights/requests'],
  logRightsRequest: ['POST', '/api/v1/rights/requests'],
  getRightsRequest: ['GET', '/api/v1/rights/requests/:requestId'],
  getRightsRequestSummary: ['GET', '/api/v1/rights/requests/:requestId/summary'],
  printRightsRequestSummary: ['GET', '/api/v1/rights/requests/:requestId/summary/pdf'],
  startRightsRequest: ['POST', '/api/v1/rights/requests/:requestId/start'],
  markRightsRequestAsset: ['POST', '/api/v1/rights/requests/:requestId/assets/:assetId'],
  resolveRightsRequest: ['POST', '/api/v1/rights/requests/:requestId/resolve'],
  getRightsSettings: ['GET', '/api/v1/rights/settings'],
  updateRightsSettings: ['PUT', '/api/v1/rights/settings'],
  getWordsOverview: ['GET', '/api/v1/words'],
  saveWordsSettings: ['PUT', '/api/v1/words/settings'],
  getLanguageWords: ['GET', '/api/v1/words/languages/:language'],
  saveLanguageWords: ['PUT', '/api/v1/words/languages/:language'],
  draftWords: ['POST', '/api/v1/words/draft'],
  draftAllWords: ['POST', '/api/v1/words/draft-all'],
  getChildrenSettings: ['GET', '/api/v1/children/settings'],
  saveChildrenSettings: ['PUT', '/api/v1/children/settings'],
  getFourthSchedule: ['GET', '/api/v1/children/fourth-schedule'],
  listGuardianRequests: ['GET', '/api/v1/children/guardian-requests'],
  getGuardianRequest: ['GET', '/api/v1/children/guardian-requests/:requestId'],
  resendGuardianRequest: ['POST', '/api/v1/children/guardian-requests/:requestId/resend'],
  getRetentionSettings: ['GET', '/api/v1/retention/settings'],
  saveRetentionSettings: ['PUT', '/api/v1/retention/settings'],
  getThirdSchedule: ['GET', '/api/v1/retention/third-schedule'],
  listRetentionUpcoming: ['GET', '/api/v1/retention/upcoming'],
  getRetentionSummary: ['GET', '/api/v1/retention/summary'],
  listRetentionErasures: ['GET', '/api/v1/retention/erasures'],
  getRetentionErasure: ['GET', '/api/v1/retention/erasures/:id'],
  resolveRetentionErasureAsset: ['POST', '/api/v1/retention/erasures/:id/assets/:assetId/resolve'],
} as const satisfies { readonly [Op in OperationId]?: readonly [Routes[Op]['method'], Routes[Op]['path']] };

export type Operation = keyof typeof endpoints;
export type { DataOf };

type Has<T> = [T] extends [never] ? false : true;
/** What a call takes: path parameters and body when the route has them, a query when it accepts one. */
export type Input<Op extends Operation> = (Has<ParamsOf<Op>> extends true ? { params: ParamsOf<Op> } : unknown) &
  (Has<BodyOf<Op>> extends true ? { body: BodyOf<Op> } : unknown) &
  (Has<QueryOf<Op>> extends true ? { query?: Partial<QueryOf<Op>> } : unknown);

/** An error answer of the API: its code and message (shown as is), and per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** Seconds to wait before trying again (429), when the service said. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface Tokens {
  token: string;
  refreshToken: string;
  /** The tenant signed in to, as login and refresh name it: its name and the time zone its times are read in. */
  tenant?: { name: string; timeZone: string };
}

/** What the client needs from the session: the current tokens, and what to do when they change or end. */
export interface TokenStore {
  current(): Tokens | undefined;
  replace(tokens: Tokens): void;
  expire(): void;
}

const urlOf = (op: Operation, input: Record<string, unknown>): string => {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = endpoints[op][1].replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
};

/** One request of an operation; a network failure is an ApiError (status 0). */
const request = async (op: Operation, input: Record<string, unknown>, token: string | undefined): Promise<Response> => {
  const [method] = endpoints[op];
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  // Every write sends a JSON body (an empty object when the route takes none); a DELETE only when it names one (DELETE /cmp/trackers).
  const hasBody = method !== 'GET' && (method !== 'DELETE' || input.body !== undefined);
  if (hasBody) headers['Content-Type'] = 'application/json';
  // no-cache: a public document cached for visitors (GET /cmp/config/:tenantId, max-age 300) is revalidated, never shown stale after a save.
  try {
    return await fetch(urlOf(op, input), { method, headers, ...(hasBody ? { body: JSON.stringify(input.body ?? {}) } : {}), credentials: 'omit', cache: 'no-cache' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.');
  }
};

type Envelope = { data?: unknown; error?: { code?: string; message?: string; fields?: Record<string, string> } };

/** An answer's envelope; an error answer (its code, message and fields) is thrown. */
const envelopeOf = async (response: Response): Promise<Envelope> => {
  const text = await response.text();
  let parsed: Envelope = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON (a proxy's error page): fall through to the status.
  }
  if (!response.ok) {
    const error = parsed.error;
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiError(response.status, error?.code ?? 'HTTP_ERROR', error?.message ?? `The service answered ${response.status}.`, error?.fields ?? {}, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  return parsed;
};

const send = async (op: Operation, input: Record<string, unknown>, token: string | undefined): Promise<unknown> => (await envelopeOf(await request(op, input, token))).data;

/** An operation whose success is a file (an export page, a printable page), not the envelope: its response, or the error thrown. */
const sendForFile = async (op: Operation, input: Record<string, unknown>, token: string | undefined): Promise<Response> => {
  const response = await request(op, input, token);
  if (!response.ok) await envelopeOf(response);
  return response;
};

export const createClient = (tokens: TokenStore) => {
  let refreshing: Promise<boolean> | undefined;

  /**
   * Refresh tokens rotate and a spent one presented again revokes the whole login, so concurrent
   * 401s share one refresh.
   */
  const refresh = (): Promise<boolean> => {
    refreshing ??= (async () => {
      const current = tokens.current();
      if (!current) return false;
      try {
        const next = (await send('refresh', { body: { refreshToken: current.refreshToken } }, undefined)) as DataOf<'refresh'>;
        tokens.replace({ token: next.token, refreshToken: next.refreshToken, tenant: next.tenant });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) tokens.expire();
        return false;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };

  /** Runs one request with the access token; on a 401 refreshes once and tries again. */
  const withToken = async <T,>(attempt: (token: string | undefined) => Promise<T>): Promise<T> => {
    const token = tokens.current()?.token;
    try {
      return await attempt(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || !token) throw error;
      if (!(await refresh())) {
        throw new ApiError(401, 'UNAUTHORIZED', 'Your session has ended. Please sign in again.');
      }
      return attempt(tokens.current()?.token);
    }
  };

  /** Calls one operation; resolves to its `data`. */
  const call = <Op extends Operation>(op: Op, ...args: keyof Input<Op> extends never ? [input?: Input<Op>] : [input: Input<Op>]): Promise<DataOf<Op>> =>
    withToken((token) => send(op, (args[0] ?? {}) as Record<string, unknown>, token) as Promise<DataOf<Op>>);

  /** Calls an operation that answers with a file; resolves to the response (its body unread). */
  const file = <Op extends 'createEvidencePack' | 'exportConsentRecords' | 'getBoardReport' | 'getRightsRequestSummary' | 'printEvidencePack' | 'printBoardReport' | 'printRightsRequestSummary'>(op: Op, input: Input<Op>): Promise<Response> =>
    withToken((token) => sendForFile(op, input as Record<string, unknown>, token));

  /** Signing in sends no token. */
  const login = (email: string, password: string) => send('login', { body: { email, password } }, undefined) as Promise<DataOf<'login'>>;

  /** Signing out revokes the refresh token's whole login on the server (sends no access token). */
  const logout = (refreshToken: string) => send('logout', { body: { refreshToken } }, undefined) as Promise<DataOf<'logout'>>;

  return { call, file, login, logout, refresh };
};
