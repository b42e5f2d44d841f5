import type { Host } from '../hosts/host-types.js';
import type { Profile } from '../profiles/profile-types.js';
import type { ServerEndpoint } from './server-endpoint.js';
import type { TemplateData } from './template-engine.js';

/** What the booting machine told about itself (the entry script's query) and where it came from. */
export interface BootClientInfo {
  ip: string;
  mac: string;
  arch: string | null;
  platform: string | null;
  uuid: string | null;
  serial: string | null;
}

/** The parts of a profile a template sees. */
export type ProfileFacts = Pick<Profile, 'id' | 'name' | 'description' | 'boot_type' | 'variables'>;

/**
 * The variables of a boot script template (docs/hosts-and-profiles.md,
 * "Template variables"). Plain JSON copies: the engine sees data, never the
 * stored rows.
 */
export function bootTemplateData(input: {
  host: Host | null;
  client: BootClientInfo;
  server: ServerEndpoint;
  serverName: string;
  profile: ProfileFacts | null;
}): TemplateData {
  const { host, client, server, profile } = input;
  return {
    host: {
      id: host?.id ?? null,
      known: host !== null,
      mac: host?.mac ?? client.mac,
      hostname: host?.hostname ?? null,
      ip: host?.ip ?? null,
      group: host?.group ?? null,
      tags: [...(host?.tags ?? [])],
      description: host?.description ?? '',
      arch: client.arch ?? host?.arch ?? null,
      platform: client.platform ?? host?.platform ?? null,
    },
    client: { ...client },
    server: { ...server, name: input.serverName },
    profile: profile ? { id: profile.id, name: profile.name, description: profile.description, boot_type: profile.boot_type } : null,
    variables: { ...(profile?.variables ?? {}) },
  };
}

/** The entry template sees only the server: nothing is known about the machine yet. */
export function entryTemplateData(server: ServerEndpoint, serverName: string): TemplateData {
  return { server: { ...server, name: serverName } };
}

const SAMPLE_SERVER: ServerEndpoint = {
  ip: '192.0.2.1',
  http_port: 8080,
  base_url: 'http://192.0.2.1:8080',
  boot_url: 'http://192.0.2.1:8080/boot',
  entry_url: 'http://192.0.2.1:8080/boot/ipxe/entry.ipxe',
  script_url: 'http://192.0.2.1:8080/boot/ipxe/boot.ipxe',
};

/**
 * Data for the render check at save time: a plausible machine (RFC 5737
 * documentation addresses) with every variable present, so a template that
 * renders here renders for real hosts unless it depends on their values.
 */
export function sampleTemplateData(profile: ProfileFacts | null): TemplateData {
  const host: Host = {
    id: 1,
    mac: '52:54:00:12:34:56',
    hostname: 'sample-host',
    ip: '192.0.2.10',
    profile_id: profile?.id ?? null,
    group: 'sample-group',
    tags: ['sample'],
    description: 'render check at save time',
    arch: 'x86_64',
    platform: 'efi',
    enabled: true,
    discovered: false,
    last_boot_at: null,
    last_seen_ip: '192.0.2.10',
    created_at: '1970-01-01T00:00:00.000Z',
    updated_at: '1970-01-01T00:00:00.000Z',
  };
  const client: BootClientInfo = { ip: '192.0.2.10', mac: host.mac, arch: 'x86_64', platform: 'efi', uuid: '00000000-0000-0000-0000-000000000000', serial: 'SAMPLE' };
  return bootTemplateData({ host, client, server: SAMPLE_SERVER, serverName: 'bootwright', profile });
}

export function sampleEntryData(): TemplateData {
  return entryTemplateData(SAMPLE_SERVER, 'bootwright');
}
