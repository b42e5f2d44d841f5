import { Type, type Static } from 'typebox';
import { AppError, invalid, validationError } from '../../core/errors.js';
import { normalizeMac } from '../../core/mac.js';
import { HostFieldSchemas, MAX_HOST_DESCRIPTION, type Host, type HostInput } from '../../hosts/hosts-contract.js';
import type { HostService } from '../../hosts/index.js';
import { BmcConfigFields, MAX_SCHEDULE_NAME_LENGTH, type BmcConfigInput, type WolSchedule, type WolScheduleInput } from '../../power/power-contract.js';
import type { PowerService } from '../../power/index.js';
import type { BmcConfig } from '../../power/bmc-config-types.js';
import type { ProfileService } from '../../profiles/index.js';
import { SealedSchema } from '../kit-file.js';
import { byName, checkShape, openSecret, refOf, type KitTarget, type RefResolver } from '../kit-target.js';

/*
 * Hosts, BMC configs and WOL schedules in a kit (docs/kit.md, "Sections").
 * A host is known by its MAC (it cannot be renamed out of a conflict); its
 * profile travels as the profile's name, its address brings its DHCP
 * reservation. A BMC config and a schedule name their hosts by MAC. A BMC
 * password is decrypted from this server's secrets and sealed under the
 * kit's passphrase (never written in clear; dropped with a warning when the
 * export has no passphrase).
 */

const HostItemSchema = Type.Object(
  {
    mac: Type.String({ minLength: 1, maxLength: 64 }),
    hostname: Type.Optional(HostFieldSchemas.hostname),
    ip: Type.Optional(HostFieldSchemas.ip),
    profile: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
    group: Type.Optional(HostFieldSchemas.group),
    tags: Type.Optional(HostFieldSchemas.tags),
    description: Type.Optional(Type.String({ maxLength: MAX_HOST_DESCRIPTION })),
    arch: Type.Optional(HostFieldSchemas.arch),
    enabled: Type.Optional(HostFieldSchemas.enabled),
    discovered: Type.Optional(HostFieldSchemas.discovered),
  },
  { additionalProperties: false },
);
type HostItem = Static<typeof HostItemSchema>;

const macKey = (mac: string) => normalizeMac(mac) ?? mac.toLowerCase();

export function hostsTarget(hosts: HostService, profiles: Pick<ProfileService, 'get'>): KitTarget<HostItem> {
  const itemOf = (host: Host): HostItem => ({
    mac: host.mac,
    hostname: host.hostname,
    ip: host.ip,
    profile: host.profile_id === null ? null : (profiles.get(host.profile_id)?.name ?? null),
    group: host.group,
    tags: host.tags,
    description: host.description,
    arch: host.arch,
    enabled: host.enabled,
    discovered: host.discovered,
  });
  /** The API input; a profile not written yet is left out (validation), required when writing (strict). */
  const input = (item: HostItem, refs: RefResolver, strict: boolean): HostInput => {
    const { profile, ...rest } = item;
    const out: HostInput = { ...rest };
    if (profile === null) out.profile_id = null;
    else if (profile !== undefined) {
      const id = refs.id('profiles', profile);
      if (id !== undefined) out.profile_id = id;
      else if (strict || !refs.known('profiles', profile)) throw invalid('hosts.profile', `profile "${profile}" is neither in the kit nor on this server`);
    }
    return out;
  };
  const require = (id: number) => hosts.require(id);
  return {
    section: 'hosts',
    canRename: false,
    secretFields: [],
    exportAll: async () => hosts.all().map(itemOf),
    parse: (raw, field) => checkShape<HostItem>(HostItemSchema, raw, field),
    keyOf: (item) => macKey(item.mac),
    nameOf: (item) => item.hostname ?? macKey(item.mac),
    withName: (item) => item,
    findExisting: (item) => {
      const host = hosts.findByMac(macKey(item.mac));
      return host ? { id: host.id, name: host.hostname ?? host.mac } : undefined;
    },
    lookup: (key) => {
      const host = hosts.findByMac(key);
      return host ? { id: host.id, name: host.hostname ?? host.mac } : undefined;
    },
    isTaken: () => true,
    current: async (id) => itemOf(require(id)),
    validate: async (item, existingId, refs) => hosts.validate(input(item, refs, false), existingId),
    create: async (item, refs) => {
      const host = await hosts.create(input(item, refs, true));
      return { id: host.id, name: host.hostname ?? host.mac };
    },
    overwrite: async (id, item, refs) => {
      const host = await hosts.update(id, input(item, refs, true));
      return { id: host.id, name: host.hostname ?? host.mac };
    },
    snapshot: (id) => structuredClone(require(id)),
    restore: async (id, snapshot) => {
      const before = snapshot as Host;
      await hosts.update(id, { mac: before.mac, hostname: before.hostname, ip: before.ip, profile_id: before.profile_id, group: before.group, tags: before.tags, description: before.description, arch: before.arch, enabled: before.enabled, discovered: before.discovered });
    },
    remove: async (id) => {
      await hosts.remove(id);
    },
  };
}

const BmcItemSchema = Type.Object(
  {
    name: BmcConfigFields.name,
    address: BmcConfigFields.address,
    port: Type.Optional(BmcConfigFields.port),
    protocol: Type.Optional(BmcConfigFields.protocol),
    username: BmcConfigFields.username,
    /** Sealed under the kit's passphrase; null: none set, or dropped by an export without a passphrase. */
    password: Type.Optional(Type.Union([SealedSchema, Type.Null()])),
    host: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
    verify_tls: Type.Optional(BmcConfigFields.verify_tls),
    cipher_suite: Type.Optional(BmcConfigFields.cipher_suite),
    privilege: Type.Optional(BmcConfigFields.privilege),
  },
  { additionalProperties: false },
);
type BmcFileItem = Static<typeof BmcItemSchema>;
/** In memory: the password in clear (undefined: the file has none, keep what is set). */
type BmcItem = Omit<BmcFileItem, 'password'> & { password?: string };

const BMC_PURPOSE = 'bmc_configs.password';

export function bmcTarget(power: Pick<PowerService, 'bmc'>, hosts: Pick<HostService, 'get' | 'findByMac'>): KitTarget<BmcItem> {
  const configs = power.bmc.configs;
  const all = (): BmcConfig[] => {
    const rows: BmcConfig[] = [];
    for (let page = 1; ; page++) {
      const { data, meta } = configs.list({ size: 500, page });
      for (const view of data) {
        const row = configs.get(view.id);
        if (row) rows.push(row);
      }
      if (data.length === 0 || rows.length >= meta.total) return rows;
    }
  };
  const plainOf = async (row: BmcConfig): Promise<BmcItem> => {
    const password = row.password_secret === null ? undefined : (await configs.target(row)).password;
    return {
      name: row.name,
      address: row.address,
      port: row.port,
      protocol: row.protocol,
      username: row.username,
      ...(password !== undefined ? { password } : {}),
      host: row.host_id === null ? null : (hosts.get(row.host_id)?.mac ?? null),
      verify_tls: row.verify_tls,
      cipher_suite: row.cipher_suite,
      privilege: row.privilege,
    };
  };
  const input = (item: BmcItem, refs: RefResolver, strict: boolean): BmcConfigInput => {
    const { host, ...rest } = item;
    const out: BmcConfigInput = { ...rest };
    if (host === null) out.host_id = null;
    else if (host !== undefined) {
      const id = refs.id('hosts', macKey(host));
      if (id !== undefined) out.host_id = id;
      else if (strict || !refs.known('hosts', macKey(host))) throw invalid('bmc_configs.host', `host ${host} is neither in the kit nor on this server`);
    }
    return out;
  };
  return {
    section: 'bmc_configs',
    canRename: true,
    secretFields: ['password'],
    exportAll: async (secrets) =>
      Promise.all(
        all().map(async (row) => {
          const { password, ...rest } = await plainOf(row);
          return { ...rest, password: password === undefined ? null : secrets.seal(password, BMC_PURPOSE) };
        }),
      ),
    parse: (raw, field, secrets) => {
      const { password, ...rest } = checkShape<BmcFileItem>(BmcItemSchema, raw, field);
      const plain = openSecret(password, secrets, BMC_PURPOSE);
      return { ...rest, ...(plain !== undefined ? { password: plain } : {}) };
    },
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(all(), item.name),
    lookup: (key) => byName(all(), key),
    isTaken: (name) => byName(all(), name) !== undefined,
    current: async (id) => plainOf(configs.require(id)),
    validate: async (item, existingId, refs) => configs.validate(input(item, refs, false), existingId),
    create: async (item, refs) => refOf(await configs.create(input(item, refs, true))),
    overwrite: async (id, item, refs) => refOf(await configs.update(id, input(item, refs, true))),
    // The row as stored: its password stays sealed under this server's key, and the undo unseals it.
    snapshot: (id) => structuredClone(configs.require(id)),
    restore: async (id, snapshot) => {
      const before = snapshot as BmcConfig;
      const password = before.password_secret === null ? '' : (await configs.target(before)).password;
      await configs.update(id, { name: before.name, address: before.address, port: before.port, protocol: before.protocol, username: before.username, password, host_id: before.host_id, verify_tls: before.verify_tls, cipher_suite: before.cipher_suite, privilege: before.privilege });
    },
    remove: async (id) => {
      await configs.remove(id);
    },
  };
}

const WolItemSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SCHEDULE_NAME_LENGTH }),
    /** The hosts woken, by MAC (host_ids on the server); or `macs`: bare MACs. */
    hosts: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 500 }), Type.Null()])),
    macs: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 500 }), Type.Null()])),
    cron: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    at: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type WolItem = Static<typeof WolItemSchema>;

export function wolTarget(power: Pick<PowerService, 'schedules'>, hosts: Pick<HostService, 'get'>): KitTarget<WolItem> {
  const schedules = power.schedules;
  const all = (): WolSchedule[] => {
    const rows: WolSchedule[] = [];
    for (let page = 1; ; page++) {
      const { data, meta } = schedules.list({ size: 500, page });
      rows.push(...data);
      if (data.length === 0 || rows.length >= meta.total) return rows;
    }
  };
  const itemOf = (row: WolSchedule): WolItem => ({
    name: row.name,
    hosts: row.host_ids === null ? null : row.host_ids.flatMap((id) => {
      const mac = hosts.get(id)?.mac;
      return mac ? [mac] : [];
    }),
    macs: row.macs,
    cron: row.cron,
    at: row.at,
    timezone: row.timezone,
    enabled: row.enabled,
  });
  const require = (id: number) => {
    const row = schedules.get(id);
    if (!row) throw new AppError('NOT_FOUND', `schedule ${id} not found`);
    return row;
  };
  /** The API input; hosts not written yet stand in as a placeholder id for validation only. */
  const input = (item: WolItem, refs: RefResolver, strict: boolean): WolScheduleInput => {
    const out: WolScheduleInput = { name: item.name, ...(item.timezone ? { timezone: item.timezone } : {}), ...(item.enabled !== undefined ? { enabled: item.enabled } : {}) };
    if (item.cron) out.cron = item.cron;
    if (item.at) out.at = item.at;
    if (item.macs) out.macs = item.macs;
    if (item.hosts) {
      const ids: number[] = [];
      for (const mac of item.hosts) {
        const id = refs.id('hosts', macKey(mac));
        if (id !== undefined) ids.push(id);
        else if (strict || !refs.known('hosts', macKey(mac))) throw validationError([{ field: 'wol_schedules.hosts', message: `host ${mac} is neither in the kit nor on this server` }]);
      }
      if (ids.length > 0) out.host_ids = ids;
      else if (!strict) out.macs = item.hosts; // every host still to be created: check the rest of the schedule with their MACs
    }
    return out;
  };
  const create = async (item: WolItem, refs: RefResolver) => refOf(await schedules.create(input(item, refs, true)));
  return {
    section: 'wol_schedules',
    canRename: true,
    secretFields: [],
    exportAll: async () => all().map(itemOf),
    parse: (raw, field) => checkShape<WolItem>(WolItemSchema, raw, field),
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(all(), item.name),
    lookup: (key) => byName(all(), key),
    isTaken: (name) => byName(all(), name) !== undefined,
    current: async (id) => itemOf(require(id)),
    validate: async (item, existingId, refs) => schedules.validate(input(item, refs, false), existingId),
    create,
    // Schedules have no update here: overwrite replaces the schedule (a new id).
    overwrite: async (id, item, refs) => {
      await schedules.remove(id);
      return create(item, refs);
    },
    snapshot: (id) => structuredClone(require(id)),
    restore: async (id, snapshot) => {
      const before = snapshot as WolSchedule;
      if (schedules.get(id)) await schedules.remove(id);
      await schedules.create({
        name: before.name,
        ...(before.host_ids ? { host_ids: before.host_ids } : {}),
        ...(before.macs ? { macs: before.macs } : {}),
        ...(before.cron ? { cron: before.cron } : {}),
        ...(before.at ? { at: before.at } : {}),
        timezone: before.timezone,
        enabled: before.enabled,
      });
    },
    remove: async (id) => {
      await schedules.remove(id);
    },
  };
}
