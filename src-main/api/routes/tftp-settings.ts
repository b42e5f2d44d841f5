import { Type, type Static } from 'typebox';
import type { AppContext } from '../../core/app-context.js';
import { TFTP_SETTING_LIMITS } from '../../servers/tftp/tftp-settings.js';
import { roleAllows } from '../../core/http-kit/access.js';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import { applyServiceSettings } from '../../services/settings-apply.js';
import type { RoutePluginFactory } from './index.js';

const limit = (key: keyof typeof TFTP_SETTING_LIMITS, description: string) =>
  Type.Integer({ minimum: TFTP_SETTING_LIMITS[key].min, maximum: TFTP_SETTING_LIMITS[key].max, description });

const TftpSettingsView = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Runs (and starts with the app); false stops it. The service auto-start flag.' }),
    port: limit('port', 'UDP port of requests (default 69)'),
    root: Type.String({ description: 'Directory served (its real path); default the boot root <data-dir>/boot' }),
    max_blksize: limit('max_blksize', 'Largest blksize granted (RFC 2348); default 1468'),
    max_windowsize: limit('max_windowsize', 'Largest windowsize granted (RFC 7440); default 64'),
    timeout: limit('timeout', 'Retransmission timeout in seconds when the client asks none (RFC 2349); default 2'),
    retries: limit('retries', 'Retransmissions before a transfer is abandoned; default 5'),
  },
  { $id: 'TftpSettings' },
);

const TftpSettingsPatch = StrictObject({
  enabled: Type.Optional(Type.Boolean()),
  port: Type.Optional(limit('port', 'UDP port')),
  root: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()], {
      description:
        'Admin only to change (sending the current root is not a change). Absolute path of an existing directory inside an allowed root (GET /settings/served-roots), never /, a system folder or the data directory; null resets to the boot root',
    }),
  ),
  max_blksize: Type.Optional(limit('max_blksize', 'blksize cap')),
  max_windowsize: Type.Optional(limit('max_windowsize', 'windowsize cap')),
  timeout: Type.Optional(limit('timeout', 'seconds')),
  retries: Type.Optional(limit('retries', 'count')),
});

function view(ctx: AppContext): Static<typeof TftpSettingsView> {
  const settings = ctx.tftpSettings.get();
  return {
    enabled: ctx.services.autoStart('tftp'),
    port: settings.port,
    root: ctx.tftpSettings.root(),
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
export const tftpSettingsRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/services/tftp',
    {
      config: { access: 'viewer' },
      schema: { tags: ['services'], summary: 'TFTP settings', response: { 200: Ok(TftpSettingsView) } },
    },
    async () => ({ success: true as const, data: view(ctx) }),
  );

  app.put<{ Body: Static<typeof TftpSettingsPatch> }>(
    '/services/tftp',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['services'],
        summary:
          'Change TFTP settings (only the fields sent); restarts the server when it runs, enabled starts or stops it. Changing root needs the admin role (403 FORBIDDEN otherwise)',
        body: TftpSettingsPatch,
        response: { 200: Ok(TftpSettingsView) },
      },
    },
    async (request) => {
      const { enabled, ...patch } = request.body;
      const rootChange = ctx.tftpSettings.rootChange(patch.root);
      // Recorded whatever the outcome, so a refused attempt to serve `/` shows in the audit log too.
      if (rootChange) request.auditDetail = { old_root: rootChange.from, new_root: rootChange.to ?? ctx.tftpSettings.bootRoot };
      const role = request.principal?.role;
      const { changed } = await ctx.tftpSettings.update(patch, { mayChangeRoot: role !== undefined && roleAllows(role, 'admin') });
      await applyServiceSettings({ services: ctx.services, name: 'tftp', enabled, changed });
      return { success: true as const, data: view(ctx) };
    },
  );
};
