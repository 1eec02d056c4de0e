import { loginBody, loginResponse, refreshBody, refreshResponse } from '../../auth/schemas';
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
} as const satisfies Record<string, RouteDefinition>;
