import { ROLES, type Role } from '@contracts/auth';

/** viewer < operator < admin: does `role` include the rights of `needed`? */
export function roleAllows(role: Role | null | undefined, needed: Role): boolean {
  if (!role) return false;
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}
