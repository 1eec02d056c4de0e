import { computed, signal } from '@preact/signals';
import { createClient, type Tokens } from './api';

// shared/roles.ts is a pure module (no imports): the dashboard offers what its policy allows.
import { accessPolicy, type Role } from '../../../shared/roles';
import { defaultTimeZone } from '../../../shared/time/format';

export interface Session extends Tokens {
  tenantId: string;
  userId: string;
  role: Role;
}

/**
 * The access token lives in memory only. The refresh token (the API returns it in the login and
 * refresh bodies; there is no cookie) is kept in sessionStorage, so a reload of this tab stays
 * signed in while another tab, or the browser after it closes, does not; it is single use and
 * rotates on every refresh. "Sign out" revokes the refresh token's login on the server
 * (POST /auth/logout) and drops both.
 */
const refreshKey = 'cms-dashboard-refresh';

export const session = signal<Session | undefined>(undefined);
/** Why the user sees the sign-in form again (session expired), if not by signing out. */
export const signedOutReason = signal<string | undefined>(undefined);

const claimsOf = (token: string): Pick<Session, 'tenantId' | 'userId' | 'role'> => {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
  const claims = JSON.parse(json) as { tid: string; sub: string; role: Role };
  return { tenantId: claims.tid, userId: claims.sub, role: claims.role };
};

const store = (tokens: Tokens) => {
  // A refresh answered by an older service names no tenant: the one already known stays.
  session.value = { ...tokens, tenant: tokens.tenant ?? session.value?.tenant, ...claimsOf(tokens.token) };
  try {
    sessionStorage.setItem(refreshKey, tokens.refreshToken);
  } catch {
    // Storage refused (private mode): the session lasts until this page closes.
  }
};

const clear = () => {
  session.value = undefined;
  try {
    sessionStorage.removeItem(refreshKey);
  } catch {
    // Nothing stored.
  }
};

export const api = createClient({
  current: () => session.value,
  replace: store,
  expire: () => {
    clear();
    signedOutReason.value = 'Your session has ended. Please sign in again.';
  },
});

export const signIn = async (email: string, password: string) => {
  const tokens = await api.login(email, password);
  signedOutReason.value = undefined;
  store(tokens);
};

export const signOut = async () => {
  const refreshToken = session.value?.refreshToken;
  clear();
  signedOutReason.value = undefined;
  // Signed out here at once; the server's revocation follows (a failure leaves a token that can
  // no longer be read from this tab, and that lapses with its 30 days).
  if (refreshToken) await api.logout(refreshToken).catch(() => undefined);
};

/** After a reload: the stored refresh token, exchanged for a new pair (false when there is none or it is spent). */
export const resume = async (): Promise<boolean> => {
  let refreshToken: string | null = null;
  try {
    refreshToken = sessionStorage.getItem(refreshKey);
  } catch {
    return false;
  }
  if (!refreshToken) return false;
  // A placeholder session whose access token is empty: the client refreshes it at once.
  session.value = { token: '', refreshToken, tenantId: '', userId: '', role: 'VIEWER' };
  const ok = await api.refresh();
  if (!ok) {
    clear();
    signedOutReason.value = undefined;
  }
  return ok;
};

const roleMay = (access: keyof typeof accessPolicy) =>
  computed(() => {
    const role = session.value?.role;
    return role !== undefined && (accessPolicy[access] as readonly Role[]).includes(role);
  });

/** The zone the tenant reads times in (every date on every screen: shared/time/format.ts); India's until the session names it. */
export const timeZone = computed(() => session.value?.tenant?.timeZone ?? defaultTimeZone);

/** Whether the role may change state (accessPolicy.write: DPO and SUPER_ADMIN); the API enforces it too. */
export const canWrite = roleMay('write');
/** Whether the role may audit: verify the log, export evidence and records (DPO and SUPER_ADMIN). */
export const canAudit = roleMay('audit');
