import { login, logout, refresh } from '../../shared/auth/service';
import { createGroupHandler } from '../../shared/http/handler';
import { authRoutes } from '../../shared/http/routes/auth';
import { userRoutes } from '../../shared/http/routes/users';
import { created, ok } from '../../shared/http/operation';
import { inviteUser, listTeam, removeUser, setPasswordByLink } from '../../shared/users/service';

export const handler = createGroupHandler('auth', { ...authRoutes, ...userRoutes }, {
  login: async ({ body }) => ok(await login(body.email, body.password)),
  refresh: async ({ body }) => ok(await refresh(body.refreshToken)),
  logout: async ({ body }) => ok(await logout(body.refreshToken)),
  setPassword: async ({ body }) => ok(await setPasswordByLink(body.token, body.password)),
  listUsers: async ({ caller }) => ok(await listTeam(caller.tenantId)),
  inviteUser: async ({ caller, body }) => created(await inviteUser(caller.tenantId, body)),
  removeUser: async ({ caller, params }) => ok(await removeUser(caller, params.userId)),
});
