/** The JSON API, at the origin and base the page's meta tag names (the same origin by default). */
const apiBase = (): string => document.querySelector<HTMLMetaElement>('meta[name="cms-api-base"]')?.content ?? '/api/v1';

/**
 * error.details on the link routes (an extension): why the link cannot be used and, when it was
 * used or has expired, whose link it was and where to get a new one.
 */
export interface LinkGone {
  reason?: 'NOT_FOUND' | 'USED' | 'EXPIRED';
  tenant?: { name: string; slug: string } | null;
  newLinkUrl?: string | null;
  expiredAt?: string;
  usedAt?: string;
}

/** A refusal: its code and, for VALIDATION_ERROR, the fields it names (their messages are the API's, for integrators; a page shows its own words). */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; code: string; details?: LinkGone; fields?: Record<string, string> };

export const callApi = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> => {
  try {
    const response = await fetch(`${apiBase()}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
      // The path holds the link's secret: it must not travel on as a referrer.
      referrerPolicy: 'no-referrer',
    });
    const payload = (await response.json().catch(() => undefined)) as { data?: T; error?: { code?: string; details?: LinkGone; fields?: Record<string, string> } } | undefined;
    if (response.ok) return { ok: true, data: payload?.data as T };
    const error = payload?.error;
    return { ok: false, status: response.status, code: error?.code ?? 'UNKNOWN', ...(error?.details ? { details: error.details } : {}), ...(error?.fields ? { fields: error.fields } : {}) };
  } catch {
    return { ok: false, status: 0, code: 'NETWORK' };
  }
};

/** GET /consent/portal/:token: the fields the page uses. */
export interface PortalText {
  title: string;
  rightsText: string | null;
  complaintText: string | null;
}

export interface PortalView {
  tenant: { name: string; slug: string };
  notice: PortalText & { id: string; versionNumber: number; contactEmail: string | null; contactUrl: string | null };
  consentedAt: string;
  isWithdrawn: boolean;
  purposes: { id: string; name: string; description: string; required: boolean; granted: boolean; withdrawn: boolean }[];
  availableLanguages: string[];
  translations: Record<string, PortalText & { purposes: Record<string, { name: string; description: string }> }>;
}

export interface WithdrawalDone {
  withdrawalId: string;
  withdrawnAt: string;
  isFullWithdrawal: boolean;
  purposesWithdrawn: string[];
  complianceTask: { dueAt: string };
}
