import type { Role } from '../roles';

export interface User {
  userId: string;
  tenantId: string;
  email: string;
  role: Role;
  /** Absent while an invited user has not yet set a password through the mailed link: no login matches it. */
  passwordHash?: string;
  createdAt: string;
}

/** What may leave the service about a user: never the password hash. */
export const publicUser = (user: User) => ({ userId: user.userId, email: user.email, role: user.role });

/** A user as the Team screen and the operator CLI list it. */
export const teamMember = (user: User) => ({ ...publicUser(user), createdAt: user.createdAt });
