import { tenantPartition } from '../tenants/keys';

/**
 * User keys.
 *
 * Access patterns:
 * - get user by tenant and id ... GetItem PK=TENANT#<tid> SK=USER#<uid>        (1 RCU)
 * - a tenant's users ............ Query PK=TENANT#<tid> SK begins_with USER#      (bounded by the team-member limit)
 * - login by email .............. GetItem PK=LOGIN#<email> SK=LOGIN            (1 RCU), then the user (1 RCU)
 *   The login item is also the guard that keeps an email unique across all tenants, since
 *   login takes no tenant.
 * - set-password link ........... GetItem PK=PWTOKEN#<sha256 of token> SK=PWTOKEN (TTL after expiry)
 */
export const userKeys = {
  user: (tenantId: string, userId: string) => ({ PK: tenantPartition(tenantId), SK: `USER#${userId}` }),
  usersPrefix: 'USER#',
  login: (email: string) => ({ PK: `LOGIN#${normaliseEmail(email)}`, SK: 'LOGIN' }),
  passwordToken: (tokenHash: string) => ({ PK: `PWTOKEN#${tokenHash}`, SK: 'PWTOKEN' }),
};

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
