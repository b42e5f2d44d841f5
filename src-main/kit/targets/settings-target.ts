import { Type, type TSchema } from 'typebox';
import { AppError, validationError, type FieldError } from '../../core/errors.js';
import { DhcpSettingsPatchSchema, type DhcpSettings as DhcpSettingsData } from '../../dhcp/dhcp-contract.js';
import { ownIpv4Addresses, type DhcpFacade } from '../../dhcp/index.js';
import { validateDhcpSettings } from '../../dhcp/dhcp-config.js';
import { checkDnsSettings, type DnsService, type DnsStoredSettings } from '../../dns/index.js';
import type { NetworkService } from '../../network/network-service.js';
import type { ProfileService } from '../../profiles/index.js';
import { applyServiceSettings, type ServiceControl } from '../../services/settings-apply.js';
import { SECTION_PATCH_SCHEMAS, type SettingsValues } from '../../settings/settings-contract.js';
import type { SettingsService } from '../../settings/settings-service.js';
import { SECTION_CHECKS } from '../../settings/settings-validation.js';
import { TFTP_SETTING_LIMITS, type TftpFacade, type StoredTftpSettings } from '../../tftp/index.js';
import { KIT_SETTINGS_PARTS, type KitSettingsPart } from '../kit-contract.js';
import { checkShape, type KitTarget } from '../kit-target.js';
import type { StoredNfsSettings } from '../../nfs/index.js';
import { KitNfsPartSchema, nfsPatchOf, readNfsPart, type KitNfsPart, type NfsPartDeps } from './nfs-part.js';

/*
 * Settings in a kit (docs/kit.md, "Settings"): general, interfaces, DHCP
 * (with its subnets), DNS, TFTP, netboot, logging and NFS (nfs-part.ts) — never users,
 * passwords or tokens (they are not settings). Each part is written through
 * the service a PUT uses, so the same validation and service restarts apply.
 * Left out because they belong to the machine, not the kit: a service's
 * on/off (auto-start) flag and the TFTP root (a path on this disk).
 * netboot.default_profile_id travels as the profile's name.
 */

export interface SettingsItem {
  part: KitSettingsPart;
  value: Record<string, unknown>;
}

const { default_profile_id: _defaultProfileId, ...netbootFields } = SECTION_PATCH_SCHEMAS.netboot.properties;
const NetbootPartSchema = Type.Object({ ...netbootFields, default_profile: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])) }, { additionalProperties: false });
const DnsPartSchema = Type.Object({ port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })), local_domain: Type.Optional(Type.String({ maxLength: 253 })), upstream: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: false });
const TftpPartSchema = Type.Object(
  Object.fromEntries(Object.keys(TFTP_SETTING_LIMITS).map((key) => [key, Type.Optional(Type.Integer())])) as Record<keyof typeof TFTP_SETTING_LIMITS, ReturnType<typeof Type.Optional<ReturnType<typeof Type.Integer>>>>,
  { additionalProperties: false },
);

const PART_SCHEMAS: Record<KitSettingsPart, TSchema> = {
  general: SECTION_PATCH_SCHEMAS.general,
  interfaces: SECTION_PATCH_SCHEMAS.interfaces,
  netboot: NetbootPartSchema,
  logging: SECTION_PATCH_SCHEMAS.logging,
  dhcp: DhcpSettingsPatchSchema,
  dns: DnsPartSchema,
  tftp: TftpPartSchema,
  nfs: KitNfsPartSchema,
};

export interface SettingsTargetDeps {
  settings: SettingsService;
  dhcp: Pick<DhcpFacade, 'settings'>;
  dns: Pick<DnsService, 'settings' | 'updateSettings'>;
  tftp: Pick<TftpFacade, 'settings'>;
  profiles: Pick<ProfileService, 'get' | 'all'>;
  network: NetworkService;
  services: ServiceControl;
  nfs: NfsPartDeps['nfs'];
  images: NfsPartDeps['images'];
}

type Tftp = Omit<StoredTftpSettings, 'root'>;

export function settingsTarget(deps: SettingsTargetDeps): KitTarget<SettingsItem> & { split(raw: unknown, field: string): unknown[]; join(items: readonly unknown[]): unknown } {
  const read = (part: KitSettingsPart): Record<string, unknown> => {
    switch (part) {
      case 'dhcp':
        return structuredClone(deps.dhcp.settings.get()) as unknown as Record<string, unknown>;
      case 'dns':
        return { ...deps.dns.settings.get() };
      case 'tftp': {
        const { root: _root, ...rest } = deps.tftp.settings.get();
        return rest as unknown as Record<string, unknown>;
      }
      case 'nfs':
        return readNfsPart(deps) as Record<string, unknown>;
      case 'netboot': {
        const { default_profile_id: id, ...rest } = deps.settings.netboot();
        return { ...rest, default_profile: id === null ? null : (deps.profiles.get(id)?.name ?? null) };
      }
      default:
        return structuredClone(deps.settings.get(part)) as unknown as Record<string, unknown>;
    }
  };
  const partIndex = (part: string): number => (KIT_SETTINGS_PARTS as readonly string[]).indexOf(part);
  const write = async (item: SettingsItem, profileId: (name: string) => number | undefined): Promise<void> => {
    const field = (path: string) => `settings.${item.part}.${path}`;
    switch (item.part) {
      case 'dhcp':
        await deps.dhcp.settings.update(item.value as Partial<DhcpSettingsData>, `settings.dhcp`);
        return;
      case 'dns':
        await deps.dns.updateSettings(item.value as Partial<DnsStoredSettings>);
        return;
      case 'tftp': {
        const { changed } = await deps.tftp.settings.update(item.value as Partial<Tftp>, { fieldPrefix: 'settings.tftp' });
        await applyServiceSettings({ services: deps.services, name: 'tftp', changed });
        return;
      }
      case 'nfs': {
        const result = await deps.nfs.settings.update(nfsPatchOf(item.value as KitNfsPart, deps, 'settings.nfs'), { fieldPrefix: 'settings.nfs' });
        await applyServiceSettings({ services: deps.services, name: 'nfs', changed: result.serverChanged });
        return;
      }
      case 'netboot': {
        const { default_profile: name, ...rest } = item.value as Record<string, unknown> & { default_profile?: string | null };
        const patch: Record<string, unknown> = { ...rest };
        if (name !== undefined) {
          const id = name === null ? null : profileId(name);
          if (id === undefined) throw validationError([{ field: field('default_profile'), message: `profile "${String(name)}" is neither in the kit nor on this server` }]);
          patch.default_profile_id = id;
        }
        await deps.settings.update({ netboot: patch as Partial<SettingsValues['netboot']> }, { fieldPrefix: () => 'settings.netboot' });
        return;
      }
      default:
        await deps.settings.update({ [item.part]: item.value }, { fieldPrefix: (section) => `settings.${section}` });
    }
  };
  return {
    section: 'settings',
    canRename: false,
    secretFields: [],
    split(raw, field) {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError([{ field, message: `an object of parts (${KIT_SETTINGS_PARTS.join(', ')})` }]);
      return Object.entries(raw as Record<string, unknown>).map(([part, value]) => ({ part, value }));
    },
    join(items) {
      return Object.fromEntries((items as SettingsItem[]).map((item) => [item.part, item.value]));
    },
    exportAll: async () => KIT_SETTINGS_PARTS.map((part) => ({ part, value: read(part) })),
    parse(raw, field) {
      const entry = raw as { part: unknown; value: unknown };
      if (typeof entry.part !== 'string' || partIndex(entry.part) < 0) throw validationError([{ field, message: `unknown settings part; one of ${KIT_SETTINGS_PARTS.join(', ')}` }]);
      const part = entry.part as KitSettingsPart;
      return { part, value: checkShape<Record<string, unknown>>(PART_SCHEMAS[part], entry.value, `${field.replace(/\.\d+$/, '')}.${part}`) };
    },
    keyOf: (item) => item.part,
    nameOf: (item) => item.part,
    withName: (item) => item,
    findExisting: (item) => ({ id: partIndex(item.part) + 1, name: item.part }),
    lookup: (key) => (partIndex(key) < 0 ? undefined : { id: partIndex(key) + 1, name: key }),
    isTaken: () => true,
    current: async (id) => {
      const part = KIT_SETTINGS_PARTS[id - 1];
      if (!part) throw new AppError('INTERNAL', `no settings part ${id}`);
      return read(part);
    },
    compared: (item) => item.value,
    async validate(item) {
      const field = (path: string) => `settings.${item.part}.${path}`;
      let errors: FieldError[] = [];
      switch (item.part) {
        case 'dhcp':
          errors = validateDhcpSettings({ ...deps.dhcp.settings.get(), ...(item.value as Partial<DhcpSettingsData>) }, ownIpv4Addresses(deps.network), field);
          break;
        case 'dns':
          errors = checkDnsSettings({ ...deps.dns.settings.get(), ...(item.value as Partial<DnsStoredSettings>) }, field).errors;
          break;
        case 'tftp':
          for (const [key, limits] of Object.entries(TFTP_SETTING_LIMITS)) {
            const value = item.value[key];
            if (value !== undefined && (typeof value !== 'number' || value < limits.min || value > limits.max)) errors.push({ field: field(key), message: `must be an integer from ${limits.min} to ${limits.max}` });
          }
          break;
        case 'nfs':
          // The NFS settings' own checks (folders against this server's allowed roots, paths, subnets, ports); throws.
          await deps.nfs.settings.check(nfsPatchOf(item.value as KitNfsPart, deps, 'settings.nfs'), { fieldPrefix: 'settings.nfs' });
          break;
        case 'netboot': {
          // The default profile is resolved when the part is written (last): it may be one this import brings.
          const { default_profile: _name, ...rest } = item.value;
          errors = SECTION_CHECKS.netboot({ ...deps.settings.netboot(), ...(rest as Partial<SettingsValues['netboot']>) }, field).errors.filter((error) => !error.field.endsWith('default_profile_id'));
          break;
        }
        default: {
          const check = SECTION_CHECKS[item.part] as (value: unknown, namer: (path: string) => string) => { errors: FieldError[] };
          errors = check({ ...deps.settings.get(item.part), ...item.value }, field).errors;
        }
      }
      if (errors.length > 0) throw validationError(errors);
    },
    create: async () => {
      throw new AppError('INTERNAL', 'settings parts always exist; they are overwritten, never created');
    },
    async overwrite(id, item, refs) {
      await write(item, (name) => refs.id('profiles', name));
      return { id, name: item.part };
    },
    snapshot: (id) => {
      const part = KIT_SETTINGS_PARTS[id - 1];
      if (!part) throw new AppError('INTERNAL', `no settings part ${id}`);
      // netboot and nfs keep their stored form here (a profile id; export ids, so clients keep their handles):
      // the undo puts back exactly the stored value. Never the NFS handle key: the snapshot is stored with the import.
      if (part === 'netboot') return { part, value: { ...deps.settings.netboot() } };
      if (part === 'nfs') {
        const { handle_key: _key, ...stored } = deps.nfs.settings.get();
        return { part, value: structuredClone(stored) };
      }
      return { part, value: read(part) };
    },
    async restore(_id, snapshot) {
      const { part, value } = snapshot as SettingsItem;
      if (part === 'netboot') await deps.settings.update({ netboot: value as Partial<SettingsValues['netboot']> });
      else if (part === 'nfs') {
        const result = await deps.nfs.settings.restore(value as unknown as Omit<StoredNfsSettings, 'handle_key'>);
        await applyServiceSettings({ services: deps.services, name: 'nfs', changed: result.serverChanged });
      } else await write({ part, value }, () => undefined);
    },
    remove: async () => {
      throw new AppError('INTERNAL', 'settings parts are never removed');
    },
  };
}

