import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../core/app-context.js';
import { serviceRoutes } from './services.js';

/** A resource's routes: a fastify plugin built from the shared operations. */
export type RoutePluginFactory = (ctx: AppContext) => FastifyPluginAsync;

/** Every resource plugin of the REST API, registered under /api/v1. */
export const API_ROUTE_PLUGINS: readonly RoutePluginFactory[] = [serviceRoutes];
