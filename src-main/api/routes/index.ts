import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../core/app-context.js';
import { auditHookPlugin } from '../../audit/audit-hook.js';
import { auditLogRoutes } from './audit-logs.js';
import { authRoutes } from './auth.js';
import { eventRoutes } from './events.js';
import { interfaceRoutes } from './interfaces.js';
import { logRoutes } from './logs.js';
import { metricsRoutes } from './metrics.js';
import { servedRootsRoutes } from '../../settings/served-roots-routes.js';
import { serviceRoutes } from './services.js';
import { settingsRoutes } from './settings.js';
import { statusRoutes } from './status.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './users.js';
import { versionRoutes } from './version.js';

/** A resource's routes: a fastify plugin built from the shared operations. */
export type RoutePluginFactory = (ctx: AppContext) => FastifyPluginAsync;

/**
 * The resource plugins of the REST API not yet in an area folder, registered
 * under /api/v1. The area list's routes (core/app-core.ts) go in at
 * AREA_ROUTES_AT, where DHCP's and DNS's were, so the OpenAPI document keeps its order;
 * the entries here move into the area list area by area.
 */
export const API_ROUTE_PLUGINS: readonly RoutePluginFactory[] = [
  // First: its onResponse hook must be in place before any route is added (it audits them all).
  auditHookPlugin,
  eventRoutes,
  auditLogRoutes,
  logRoutes,
  authRoutes,
  userRoutes,
  tokenRoutes,
  serviceRoutes,
  settingsRoutes,
  servedRootsRoutes,
  interfaceRoutes,
  versionRoutes,
  statusRoutes,
  metricsRoutes,
];

/** Where the area list's routes are registered among API_ROUTE_PLUGINS: after the metrics routes, where DHCP's were (see above). */
export const AREA_ROUTES_AT = API_ROUTE_PLUGINS.indexOf(metricsRoutes) + 1;
