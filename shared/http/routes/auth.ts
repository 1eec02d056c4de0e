import { loginBody, loginResponse, logoutResponse, refreshBody, refreshResponse } from '../../auth/schemas';
import type { RouteDefinition } from '../route';

export const authRoutes = {
  login: {
    method: 'POST',
    path: '/api/v1/auth/login',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Log in with email and password',
    description:
      'Returns a 15-minute access token and a refresh token. An unknown email and a wrong password give the same 401 UNAUTHORIZED in the same time.',
    tags: ['Authentication'],
    request: { body: loginBody },
    response: { status: 200, description: 'Tokens', data: loginResponse },
    errors: ['UNAUTHORIZED', 'RATE_LIMIT'],
  },
  refresh: {
    method: 'POST',
    path: '/api/v1/auth/refresh',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Exchange a refresh token for a new access token',
    description:
      'Refresh tokens rotate: the response carries a new refresh token and the presented one is spent. Presenting a spent refresh token again revokes every token of that login (401 UNAUTHORIZED). Refresh tokens live 30 days.',
    tags: ['Authentication'],
    request: { body: refreshBody },
    response: { status: 200, description: 'New tokens', data: refreshResponse },
    errors: ['UNAUTHORIZED', 'RATE_LIMIT'],
  },
  logout: {
    method: 'POST',
    path: '/api/v1/auth/logout',
    group: 'auth',
    auth: { kind: 'none' },
    limits: [{ limit: 'loginPerIp', per: 'ip', code: 'RATE_LIMIT' }],
    summary: 'Sign out: revoke the refresh token and every token of its login',
    description:
      'Extension. Takes the refresh token (the dashboard\'s Sign out): its login\'s whole token family is revoked, so no token of it can be refreshed again. Always 200 with the same body, whether or not the token was known, expired or already revoked. An access token already issued stays valid until it expires (15 minutes).',
    tags: ['Authentication'],
    request: { body: refreshBody },
    response: { status: 200, description: 'Signed out', data: logoutResponse },
    errors: ['RATE_LIMIT'],
  },
} as const satisfies Record<string, RouteDefinition>;
