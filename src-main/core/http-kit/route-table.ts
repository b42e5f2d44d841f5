import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What code outside the HTTP app may know about it without importing it
 * (api/http-app.ts builds the app from the areas, so an area importing it
 * would point the layering upward): the API prefix, the request-guard shape
 * and the table of registered routes.
 */

export const API_PREFIX = '/api/v1';

/** A check run on every request before authentication (Host allowlist, rate limits). */
export type RequestGuard = (request: FastifyRequest) => void | Promise<void>;

/** One route as registered, for the OpenAPI consistency check and 405 detection. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

/** The name under which api/http-app.ts decorates the app with its RegisteredRoute list. */
export const REGISTERED_ROUTES_KEY = 'registeredRoutes';

/** The routes registered so far (method and fastify URL pattern). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return (app as unknown as Record<typeof REGISTERED_ROUTES_KEY, RegisteredRoute[]>)[REGISTERED_ROUTES_KEY];
}
