import type { Static } from 'typebox';
import { DnsSettingsPatchSchema, DnsSettingsSchema } from '../../dns/dns-settings.js';
import { Ok } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

/** DNS settings: port, local domain, upstream list and the on/off switch (docs/dns.md). */
export const dnsSettingsRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/services/dns',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dns'], summary: 'DNS settings', response: { 200: Ok(DnsSettingsSchema) } },
    },
    async () => ({ success: true as const, data: ctx.dns.settings.get() }),
  );

  app.put<{ Body: Static<typeof DnsSettingsPatchSchema> }>(
    '/services/dns',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dns'],
        summary: 'Update DNS settings (any subset; 400 names a bad upstream entry or domain). A change restarts a running DNS server; enabled false/true stops/starts it and sets its auto-start',
        body: DnsSettingsPatchSchema,
        response: { 200: Ok(DnsSettingsSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.dns.updateSettings(request.body) }),
  );
};
