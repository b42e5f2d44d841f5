import { definedOnly } from '../core/defined-only.js';
import { AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { parseIpv4Subnet, subnetHas, type Ipv4Subnet } from '../network/ip-math.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { dhcpDefaults, validateDhcpSettings } from './dhcp-config.js';
import { subnetDefaults, type DhcpSettings as DhcpSettingsData, type DhcpSettingsPatch, type DhcpSubnet, type DhcpSubnetInput } from './dhcp-contract.js';

export type DhcpSettingsListener = (next: DhcpSettingsData, previous: DhcpSettingsData) => void | Promise<void>;

/** A configured subnet with its parsed form (for lookups by address). */
export interface ParsedSubnetConfig {
  config: DhcpSubnet;
  subnet: Ipv4Subnet;
}

/**
 * The stored DHCP settings with all-or-nothing validated updates and change
 * subscriptions (the server reloads, reservations re-check their subnet).
 */
export class DhcpSettings {
  private readonly section: Section<DhcpSettingsData>;
  private readonly ownAddresses: () => string[];
  private readonly log: Logger;
  private readonly listeners = new Set<DhcpSettingsListener>();
  private queue: Promise<unknown> = Promise.resolve();
  private cached: DhcpSettingsData;
  private parsed: ParsedSubnetConfig[];

  constructor(deps: { store: Store; ownAddresses: () => string[]; log: Logger }) {
    this.section = deps.store.section<DhcpSettingsData>('dhcp', dhcpDefaults());
    this.ownAddresses = deps.ownAddresses;
    this.log = deps.log.scope('dhcp');
    this.cached = this.section.get();
    this.parsed = parseSubnets(this.cached);
  }

  get(): DhcpSettingsData {
    return structuredClone(this.cached);
  }

  /** The live value, not copied: read-only for the per-packet path. */
  current(): Readonly<DhcpSettingsData> {
    return this.cached;
  }

  subnets(): readonly ParsedSubnetConfig[] {
    return this.parsed;
  }

  /** The configured subnet that holds `address` (a uint32), or undefined. */
  subnetFor(address: number): ParsedSubnetConfig | undefined {
    return this.parsed.find((entry) => subnetHas(entry.subnet, address));
  }

  /** True when any interface is in server or proxy mode. */
  anyInterfaceEnabled(): boolean {
    return this.cached.interfaces.some((iface) => iface.mode !== 'off');
  }

  onChange(listener: DhcpSettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Merges `patch` over the current value, validates the whole, stores it and notifies; 400 and no change on error. */
  update(patch: DhcpSettingsPatch, fieldPrefix = 'body'): Promise<DhcpSettingsData> {
    const run = this.queue.catch(() => undefined).then(() => this.apply(patch, fieldPrefix));
    this.queue = run;
    return run;
  }

  private async apply(patch: DhcpSettingsPatch, fieldPrefix: string): Promise<DhcpSettingsData> {
    const previous = this.get();
    const { subnets, ...rest } = structuredClone(patch);
    const next: DhcpSettingsData = { ...previous, ...definedOnly(rest), ...(subnets ? { subnets: subnets.map(withSubnetDefaults) } : {}) };
    const errors = validateDhcpSettings(next, this.ownAddresses(), (path) => `${fieldPrefix}.${path}`);
    if (errors.length > 0) {
      const [first] = errors;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      throw new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}${more}`, { details: errors });
    }
    if (JSON.stringify(next) === JSON.stringify(previous)) return previous;
    await this.section.set(next);
    this.cached = this.section.get();
    this.parsed = parseSubnets(this.cached);
    for (const listener of this.listeners) {
      try {
        await listener(this.get(), previous);
      } catch (err) {
        this.log.error(`dhcp settings listener failed: ${String(err)}`);
      }
    }
    return this.get();
  }
}

/** A subnet as given (only `subnet` and `ranges` required) with the defaults of the fields it leaves out. */
export function withSubnetDefaults(input: DhcpSubnetInput): DhcpSubnet {
  return { ...subnetDefaults(), subnet: input.subnet, ranges: input.ranges, ...definedOnly(input) };
}

function parseSubnets(value: DhcpSettingsData): ParsedSubnetConfig[] {
  const out: ParsedSubnetConfig[] = [];
  for (const config of value.subnets) {
    const subnet = parseIpv4Subnet(config.subnet);
    if (subnet) out.push({ config, subnet });
  }
  // Longest prefix first, so subnetFor finds the most specific one.
  return out.sort((a, b) => b.subnet.prefix - a.subnet.prefix);
}
