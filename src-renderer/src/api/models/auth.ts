export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** viewer < operator < admin: does `role` include the rights of `needed`? */
export function roleAllows(role: Role | null | undefined, needed: Role): boolean {
  if (!role) return false;
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export interface User {
  id: number;
  username: string;
  role: Role;
  disabled: boolean;
  created_at: string;
  updated_at: string;
  password_changed_at: string;
}

export interface ApiToken {
  id: number;
  name: string;
  role: Role;
  hint: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** POST /tokens answer: the token plus its secret, shown only once. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}
