import * as z from 'zod';

export const loginBody = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(200),
});

export const refreshBody = z.strictObject({
  refreshToken: z.string().min(1).max(200),
});

export const loginResponse = z.object({
  token: z.string().describe('Access token (JWT), valid 15 minutes'),
  refreshToken: z.string().describe('Opaque refresh token, single use: each refresh returns a new one'),
  expiresIn: z.number().int().describe('Seconds until the access token expires'),
});

export const refreshResponse = loginResponse;

export const logoutResponse = z.object({ signedOut: z.literal(true) });
