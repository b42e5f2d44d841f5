import type { FastifyRequest } from 'fastify';

import { ROLES, type Role } from './common-contract.js';

export { ROLES, type Role };

/**
 * What a route requires. Every `/api/` route must declare it (a route without
 * it fails at startup): 'public' needs nothing, a role needs a principal with
 * at least that role.
 */
export type Access = 'public' | Role;

/** Who is calling. */
export interface Principal {
  kind: 'user' | 'token' | 'local';
  user_id: number | null;
  username: string;
  role: Role;
  /** Set when authenticated by session cookie; CSRF checks apply only then. */
  session_id?: string;
  token_id?: number;
}

/** The built-in identity of the desktop user calling through IPC. */
export const LOCAL_PRINCIPAL: Principal = Object.freeze({ kind: 'local', user_id: null, username: 'local', role: 'admin' });

/**
 * Resolves the principal of an HTTP request (session cookie, bearer token).
 * Foundation B provides the implementation; the route table has one path for all.
 */
export interface Authenticator {
  authenticate(request: FastifyRequest): Promise<Principal | null>;
}

export function roleAllows(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(required);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * A route booting machines call (the netboot PXE runtime: answer files,
     * progress callbacks), public like the /boot/ files: not audited (its
     * requests are events of their own, rate-limited by the route), and its
     * path may hold a per-task token that must not reach an audit row or log.
     */
    machineRuntime?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** True for requests that arrived over IPC from the desktop renderer. */
    viaIpc: boolean;
  }
}
