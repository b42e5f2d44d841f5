import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../core/app-context.js';
import { accessRoutes } from './access.js';
import { bmcRoutes } from './bmc.js';
import { bootloaderRoutes } from './bootloader.js';
import { dhcpReservationRoutes } from './dhcp-reservations.js';
import { dhcpSettingsRoutes } from './dhcp-settings.js';
import { hostPowerRoutes } from './host-power.js';
import { hostRoutes } from './hosts.js';
import { ipxeScriptRoutes } from './ipxe-script.js';
import { leaseRoutes } from './leases.js';
import { profileRoutes } from './profiles.js';
import { tftpSettingsRoutes } from './tftp-settings.js';
import { wolRoutes } from './wol.js';

/** A resource's routes: a fastify plugin built from the shared operations. */
export type RoutePluginFactory = (ctx: AppContext) => FastifyPluginAsync;

/**
 * The resource plugins of the REST API not yet in an area folder, registered
 * under /api/v1. The ground areas' routes (events … system) go before all
 * of these, the later areas' (DNS) at AREA_ROUTES_AT, so the OpenAPI document
 * keeps its order (core/app-core.ts); the entries here move into the area
 * list area by area.
 */
export const API_ROUTE_PLUGINS: readonly RoutePluginFactory[] = [
  dhcpSettingsRoutes,
  leaseRoutes,
  dhcpReservationRoutes,
  accessRoutes,
  tftpSettingsRoutes,
  bootloaderRoutes,
  hostRoutes,
  profileRoutes,
  ipxeScriptRoutes,
  wolRoutes,
  bmcRoutes,
  hostPowerRoutes,
];

/** Where the area list's routes are registered among API_ROUTE_PLUGINS: after the DHCP access routes (see above). */
export const AREA_ROUTES_AT = API_ROUTE_PLUGINS.indexOf(accessRoutes) + 1;
