import * as z from 'zod/mini';
import { described } from '../described';

export const loginBody = /* @__PURE__ */ (() => z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
}))();

export const refreshBody = /* @__PURE__ */ (() => z.strictObject({
  refreshToken: z.string().check(z.minLength(1), z.maxLength(200)),
}))();

export const loginResponse = /* @__PURE__ */ z.lazy(() => z.object({
  token: described(z.string(), 'Access token (JWT), valid 15 minutes'),
  refreshToken: described(z.string(), 'Opaque refresh token, single use: each refresh returns a new one'),
  expiresIn: described(z.number().check(z.int()), 'Seconds until the access token expires'),
  tenant: described(
    z.object({ name: z.string(), timeZone: described(z.string(), 'The IANA zone the tenant reads times in (Asia/Kolkata unless it chose another)') }),
    'Extension: the tenant signed in to, as the dashboard names it and writes its times',
  ),
}));

export const refreshResponse = loginResponse;

export const logoutResponse = /* @__PURE__ */ z.lazy(() => z.object({ signedOut: z.literal(true) }));
