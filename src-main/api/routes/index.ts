import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../core/app-context.js';
import { auditHookPlugin } from '../../audit/audit-hook.js';
import { auditLogRoutes } from './audit-logs.js';
import { authRoutes } from './auth.js';
import { eventRoutes } from './events.js';
import { interfaceRoutes } from './interfaces.js';
import { logRoutes } from './logs.js';
import { metricsRoutes } from './metrics.js';
import { serviceRoutes } from './services.js';
import { settingsRoutes } from './settings.js';
import { statusRoutes } from './status.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './users.js';
import { versionRoutes } from './version.js';

/** A resource's routes: a fastify plugin built from the shared operations. */
export type RoutePluginFactory = (ctx: AppContext) => FastifyPluginAsync;

/** Every resource plugin of the REST API, registered under /api/v1. */
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
  interfaceRoutes,
  versionRoutes,
  statusRoutes,
  metricsRoutes,
];
