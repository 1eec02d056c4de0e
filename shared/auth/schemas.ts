import * as z from 'zod/mini';
import { described } from '../described';

export const loginBody = z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const refreshBody = z.strictObject({
  refreshToken: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const loginResponse = z.object({
  token: described(z.string(), 'Access token (JWT), valid 15 minutes'),
  refreshToken: described(z.string(), 'Opaque refresh token, single use: each refresh returns a new one'),
  expiresIn: described(z.number().check(z.int()), 'Seconds until the access token expires'),
});

export const refreshResponse = loginResponse;

export const logoutResponse = z.object({ signedOut: z.literal(true) });
