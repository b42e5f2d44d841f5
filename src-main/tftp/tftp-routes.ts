import type { FastifyPluginAsync } from 'fastify';
import { roleAllows } from '../core/http-kit/access.js';
import { Ok } from '../core/http-kit/schemas.js';
import { applyServiceSettings, type ServiceControl } from '../services/settings-apply.js';
import { TftpSettingsUpdateSchema, TftpSettingsViewSchema, type TftpSettingsUpdate, type TftpSettingsView } from './tftp-contract.js';
import type { TftpSettings } from './tftp-settings.js';

/** What the routes use: the TFTP area's settings and the service manager that owns its server (auto-start flag, restarts). */
export interface TftpRouteDeps {
  settings: TftpSettings;
  services: ServiceControl;
}

function view(deps: TftpRouteDeps): TftpSettingsView {
  const settings = deps.settings.get();
  return {
    enabled: deps.services.autoStart('tftp'),
    port: settings.port,
    root: deps.settings.root(),
    max_blksize: settings.max_blksize,
    max_windowsize: settings.max_windowsize,
    timeout: settings.timeout,
    retries: settings.retries,
  };
}

/**
 * GET/PUT /services/tftp: the TFTP server's settings; a change restarts the
 * running server. The route stays operator-level so operators can tune
 * blksize, ports and timeouts, but a request that changes `root` needs admin:
 * the root decides which files anyone on the LAN can read without a login.
 */
export function tftpRoutes(deps: TftpRouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/services/tftp',
      {
        config: { access: 'viewer' },
        schema: { tags: ['services'], summary: 'TFTP settings', response: { 200: Ok(TftpSettingsViewSchema) } },
      },
      async () => ({ success: true as const, data: view(deps) }),
    );

    app.put<{ Body: TftpSettingsUpdate }>(
      '/services/tftp',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['services'],
          summary:
            'Change TFTP settings (only the fields sent); restarts the server when it runs, enabled starts or stops it. Changing root needs the admin role (403 FORBIDDEN otherwise)',
          body: TftpSettingsUpdateSchema,
          response: { 200: Ok(TftpSettingsViewSchema) },
        },
      },
      async (request) => {
        const { enabled, ...patch } = request.body;
        const rootChange = deps.settings.rootChange(patch.root);
        // Recorded whatever the outcome, so a refused attempt to serve `/` shows in the audit log too.
        if (rootChange) request.auditDetail = { old_root: rootChange.from, new_root: rootChange.to ?? deps.settings.bootRoot };
        const role = request.principal?.role;
        const { changed } = await deps.settings.update(patch, { mayChangeRoot: role !== undefined && roleAllows(role, 'admin') });
        await applyServiceSettings({ services: deps.services, name: 'tftp', enabled, changed });
        return { success: true as const, data: view(deps) };
      },
    );
  };
}
