import type { Role } from '../roles';

export interface User {
  userId: string;
  tenantId: string;
  email: string;
  role: Role;
  passwordHash: string;
  createdAt: string;
}

/** What may leave the service about a user: never the password hash. */
export const publicUser = (user: User) => ({ userId: user.userId, email: user.email, role: user.role });
