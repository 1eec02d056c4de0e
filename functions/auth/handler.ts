import { login, refresh } from '../../shared/auth/service';
import { createGroupHandler } from '../../shared/http/handler';
import { authRoutes } from '../../shared/http/routes/auth';
import { ok } from '../../shared/http/operation';

export const handler = createGroupHandler('auth', authRoutes, {
  login: async ({ body }) => ok(await login(body.email, body.password)),
  refresh: async ({ body }) => ok(await refresh(body.refreshToken)),
});
