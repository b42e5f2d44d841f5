import type { TemplateData } from '../templates/template-engine.js';
import type { Profile } from './profile-types.js';

/*
 * The variables a boot script template sees (docs/hosts-and-profiles.md,
 * "Template variables"). They live with the profiles, whose save-time check
 * renders with sample data of the same shape; the boot scripts area (listed
 * later) fills them for real machines. The host and server shapes are written
 * out here because the hosts and boot scripts areas come after this one; their
 * Host and ServerEndpoint fit them.
 */

/** Where a booting client reaches this server, as scripts rendered for it name it. */
export interface ServerEndpoint {
  /** Our address on the client's subnet. */
  ip: string;
  http_port: number;
  /** e.g. `http://192.168.10.1:8080` (IPv6 in brackets). */
  base_url: string;
  /** `base_url` + `/boot`: the root of boot files over HTTP. */
  boot_url: string;
  /** Full URL of the entry script. */
  entry_url: string;
  /** Full URL of the per-machine boot script (without query). */
  script_url: string;
}

/** The parts of a host record a template sees (a Host of the hosts area fits). */
export interface HostFacts {
  id: number;
  mac: string;
  hostname: string | null;
  ip: string | null;
  group: string | null;
  tags: readonly string[];
  description: string;
  arch: string | null;
  platform: string | null;
}

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
  host: HostFacts | null;
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
  const host: HostFacts = {
    id: 1,
    mac: '52:54:00:12:34:56',
    hostname: 'sample-host',
    ip: '192.0.2.10',
    group: 'sample-group',
    tags: ['sample'],
    description: 'render check at save time',
    arch: 'x86_64',
    platform: 'efi',
  };
  const client: BootClientInfo = { ip: '192.0.2.10', mac: host.mac, arch: 'x86_64', platform: 'efi', uuid: '00000000-0000-0000-0000-000000000000', serial: 'SAMPLE' };
  return bootTemplateData({ host, client, server: SAMPLE_SERVER, serverName: 'bootwright', profile });
}

export function sampleEntryData(): TemplateData {
  return entryTemplateData(SAMPLE_SERVER, 'bootwright');
}
