import type { EventLog } from '../../events/event-log.js';
import type { Collection, Row } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import type { HostInventory, InventorySummary } from '../baselines-contract.js';

export const HOST_INVENTORY_COLLECTION = 'host_inventory';

interface InventoryRow extends Row {
  host_id: number;
  received_at: string;
  bytes: number;
  data: Record<string, unknown>;
}

export interface InventoryDeps {
  store: Store;
  events: EventLog;
  macOf(hostId: number): string | null;
  now: () => Date;
}

/**
 * The hardware inventory an installed machine posts through its runtime
 * token (the shipped "Hardware inventory report" script posts lshw -json,
 * lsblk, ip link and dmidecode to $BOOTWRIGHT_INVENTORY_URL). One row per
 * host, replaced by each new report.
 */
export class HostInventories {
  private readonly rows: Collection<InventoryRow>;

  constructor(private readonly deps: InventoryDeps) {
    this.rows = deps.store.collection<InventoryRow>(HOST_INVENTORY_COLLECTION);
  }

  get(hostId: number): HostInventory | undefined {
    const row = this.rows.find((candidate) => candidate.host_id === hostId);
    return row ? view(row) : undefined;
  }

  async save(hostId: number, data: Record<string, unknown>, bytes: number, ip: string): Promise<HostInventory> {
    const now = this.deps.now();
    const existing = this.rows.find((candidate) => candidate.host_id === hostId);
    const fields = { host_id: hostId, received_at: now.toISOString(), bytes, data };
    const row = existing ? await this.rows.update(existing.id, fields, now) : await this.rows.insert(fields, now);
    if (!row) throw new Error(`host ${hostId}: the inventory row vanished while it was written`);
    const summary = summarizeInventory(data);
    const mac = this.deps.macOf(hostId);
    this.deps.events.emit(
      {
        kind: 'host.inventory.received',
        message: `hardware inventory of host ${hostId}: ${[summary.vendor, summary.product].filter(Boolean).join(' ') || 'unknown system'}, ${summary.disks.length} disk(s), ${summary.nics.length} NIC(s)`,
        host_id: hostId,
        ip,
        ...(mac !== null ? { mac } : {}),
        detail: { bytes, vendor: summary.vendor, product: summary.product, serial: summary.serial },
      },
      now,
    );
    return view(row);
  }

  /** Forgets a host's inventory (the host was deleted). */
  async removeHost(hostId: number): Promise<void> {
    await this.rows.removeWhere((row) => row.host_id === hostId);
  }
}

function view(row: InventoryRow): HostInventory {
  return { host_id: row.host_id, received_at: row.received_at, bytes: row.bytes, summary: summarizeInventory(row.data), data: row.data };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);

/** Every node of lshw's tree (depth-first, bounded: a hostile document cannot make this loop long). */
function lshwNodes(root: unknown, limit = 5000): Json[] {
  const out: Json[] = [];
  const stack: unknown[] = Array.isArray(root) ? [...root] : [root];
  while (stack.length > 0 && out.length < limit) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    out.push(node);
    if (Array.isArray(node.children)) stack.push(...node.children.slice(0, limit));
  }
  return out;
}

/**
 * The summary the host page shows, read leniently: lshw's tree for system,
 * CPU, memory and NICs, `disks` (lsblk -J -b) for disks, the top-level
 * serial/uuid the script adds. Anything missing is null or empty.
 */
export function summarizeInventory(data: Record<string, unknown>): InventorySummary {
  const nodes = lshwNodes(data.lshw);
  const system = nodes.find((node) => node.class === 'system');
  const cpus = nodes.filter((node) => node.class === 'processor' && node.disabled !== true);
  const memory = nodes.find((node) => node.class === 'memory' && (node.id === 'memory' || String(node.id).startsWith('memory')) && integer(node.size) !== null);
  const nics = nodes
    .filter((node) => node.class === 'network')
    .map((node) => ({ name: text(node.logicalname) ?? text(node.product) ?? 'network', mac: text(node.serial) }));
  const lsblk = isObject(data.disks) && Array.isArray(data.disks.blockdevices) ? data.disks.blockdevices : [];
  const disks = lsblk
    .filter((device): device is Json => isObject(device) && device.type === 'disk')
    .map((device) => ({ name: text(device.name) ?? 'disk', size_bytes: integer(device.size) ?? (typeof device.size === 'string' && /^\d+$/.test(device.size) ? Number(device.size) : null), model: text(device.model), serial: text(device.serial) }));
  return {
    vendor: text(system?.vendor),
    product: text(system?.product),
    serial: text(data.serial) ?? text(system?.serial),
    uuid: text(data.uuid) ?? (isObject(system?.configuration) ? text(system.configuration.uuid) : null),
    cpu: text(cpus[0]?.product),
    cpu_count: cpus.length,
    memory_bytes: integer(memory?.size),
    disks: disks.slice(0, 64),
    nics: nics.slice(0, 64),
  };
}
