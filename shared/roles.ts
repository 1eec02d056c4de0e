export const roles = ['DPO', 'SUPER_ADMIN', 'ANALYST', 'VIEWER'] as const;
export type Role = (typeof roles)[number];

/** Who may change tenant configuration (notices, keys, webhooks): the spec's "DPO, SUPER_ADMIN". */
export const adminRoles: readonly Role[] = ['DPO', 'SUPER_ADMIN'];
