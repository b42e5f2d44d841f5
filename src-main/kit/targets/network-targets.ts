import { Type, type Static } from 'typebox';
import { invalid } from '../../core/errors.js';
import { normalizeMac } from '../../core/mac.js';
import { literalUnion } from '../../core/http-kit/common-contract.js';
import { ACCESS_LISTS, CustomOptionSchema, MAX_ACCESS_COMMENT, ReservationFields, type DhcpReservation } from '../../dhcp/dhcp-contract.js';
import type { DhcpFacade } from '../../dhcp/index.js';
import { DnsRecordInputSchema, type DnsRecord } from '../../dns/dns-contract.js';
import { AUTO_RECORD_COMMENT, type DnsService } from '../../dns/index.js';
import { checkShape, type KitTarget } from '../kit-target.js';

/*
 * DNS records, standalone DHCP reservations and the MAC access lists in a
 * kit (docs/kit.md, "Sections"). Their identity is their data (a record's
 * name, type, value and subnet; a reservation's MAC; a list entry's MAC), so
 * a taken one is skipped or overwritten, never renamed. Auto-records (the
 * server's own names) and reservations that belong to a host (the host
 * brings its address) are not exported.
 */

type DnsItem = Static<typeof DnsRecordInputSchema>;

function recordKey(item: Pick<DnsItem, 'name' | 'type' | 'value' | 'subnet'>): string {
  return `${item.name.toLowerCase()} ${item.type} ${item.value}${item.subnet ? ` @${item.subnet}` : ''}`;
}

function recordItem(row: DnsRecord): DnsItem {
  return { name: row.name, type: row.type, value: row.value, ttl: row.ttl, priority: row.priority, subnet: row.subnet, enabled: row.enabled, comment: row.comment };
}

export function dnsRecordsTarget(dns: Pick<DnsService, 'records'>): KitTarget<DnsItem> {
  const records = dns.records;
  const find = (item: DnsItem) => records.all().find((row) => recordKey(row) === recordKey(item));
  return {
    section: 'dns_records',
    canRename: false,
    secretFields: [],
    exportAll: async () => records.all().filter((row) => row.comment !== AUTO_RECORD_COMMENT).map(recordItem),
    parse: (raw, field) => checkShape<DnsItem>(DnsRecordInputSchema, raw, field),
    keyOf: recordKey,
    nameOf: recordKey,
    withName: (item) => item,
    findExisting: (item) => {
      const row = find(item);
      return row ? { id: row.id, name: recordKey(row) } : undefined;
    },
    lookup: (key) => {
      const row = records.all().find((other) => recordKey(other) === key);
      return row ? { id: row.id, name: key } : undefined;
    },
    isTaken: () => true,
    current: async (id) => recordItem(records.get(id)),
    validate: async (item, existingId) => records.validate(item, existingId),
    create: async (item) => {
      const row = await records.create(item);
      return { id: row.id, name: recordKey(row) };
    },
    overwrite: async (id, item) => {
      const row = await records.update(id, item);
      return { id: row.id, name: recordKey(row) };
    },
    snapshot: (id) => recordItem(records.get(id)),
    restore: async (id, snapshot) => {
      await records.update(id, snapshot as DnsItem);
    },
    remove: async (id) => {
      await records.remove(id);
    },
  };
}

const ReservationItemSchema = Type.Object(
  {
    mac: Type.String({ minLength: 1, maxLength: 64 }),
    ip: ReservationFields.ip,
    hostname: Type.Optional(ReservationFields.hostname),
    boot_file: Type.Optional(ReservationFields.boot_file),
    options: Type.Optional(Type.Array(CustomOptionSchema, { maxItems: 64 })),
  },
  { additionalProperties: false },
);
type ReservationItem = Static<typeof ReservationItemSchema>;

function reservationItem(row: DhcpReservation): ReservationItem {
  return { mac: row.mac, ip: row.ip, hostname: row.hostname, boot_file: row.boot_file, options: row.options };
}

export function reservationsTarget(dhcp: Pick<DhcpFacade, 'reservations'>): KitTarget<ReservationItem> {
  const reservations = dhcp.reservations;
  const keyOf = (item: ReservationItem) => normalizeMac(item.mac) ?? item.mac;
  return {
    section: 'dhcp_reservations',
    canRename: false,
    secretFields: [],
    exportAll: async () => reservations.list().filter((row) => row.host_id === null).map(reservationItem),
    parse: (raw, field) => checkShape<ReservationItem>(ReservationItemSchema, raw, field),
    keyOf,
    nameOf: keyOf,
    withName: (item) => item,
    findExisting: (item) => {
      const row = reservations.byMac(keyOf(item));
      return row ? { id: row.id, name: row.mac } : undefined;
    },
    lookup: (key) => {
      const row = reservations.byMac(key);
      return row ? { id: row.id, name: row.mac } : undefined;
    },
    isTaken: () => true,
    current: async (id) => reservationItem(reservations.get(id)),
    validate: async (item, existingId) => reservations.validate(item, existingId),
    create: async (item) => {
      const row = await reservations.create(item);
      return { id: row.id, name: row.mac };
    },
    overwrite: async (id, item) => {
      const row = await reservations.update(id, item);
      return { id: row.id, name: row.mac };
    },
    snapshot: (id) => reservationItem(reservations.get(id)),
    restore: async (id, snapshot) => {
      await reservations.update(id, snapshot as ReservationItem);
    },
    remove: async (id) => {
      await reservations.remove(id);
    },
  };
}

const AccessItemSchema = Type.Object(
  { list: literalUnion(ACCESS_LISTS), mac: Type.String({ minLength: 1, maxLength: 64 }), comment: Type.Optional(Type.String({ maxLength: MAX_ACCESS_COMMENT })) },
  { additionalProperties: false },
);
type AccessItem = Static<typeof AccessItemSchema>;

/** Both lists in one section, an entry keyed by its list and MAC. */
export function accessListsTarget(dhcp: Pick<DhcpFacade, 'access'>): KitTarget<AccessItem> {
  const access = dhcp.access;
  const keyOf = (item: AccessItem) => `${item.list} ${normalizeMac(item.mac) ?? item.mac}`;
  // The two lists are two collections with their own ids: the kit's local id of a whitelist entry is its id negated.
  const localId = (list: AccessItem['list'], id: number) => (list === 'whitelist' ? -id : id);
  const entryOf = (id: number) => {
    const list: AccessItem['list'] = id < 0 ? 'whitelist' : 'blacklist';
    const entry = access.list(list).find((row) => row.id === Math.abs(id));
    return entry ? { list, entry } : undefined;
  };
  const itemOf = (id: number): AccessItem => {
    const found = entryOf(id);
    if (!found) throw new Error(`access entry ${id} is gone`);
    return { list: found.list, mac: found.entry.mac, comment: found.entry.comment };
  };
  const add = async (item: AccessItem) => {
    const entry = await access.add(item.list, { mac: item.mac, comment: item.comment ?? '' }, 'access_lists.mac');
    return { id: localId(item.list, entry.id), name: `${item.list} ${entry.mac}` };
  };
  return {
    section: 'access_lists',
    canRename: false,
    secretFields: [],
    exportAll: async () => ACCESS_LISTS.flatMap((list) => access.list(list).map((entry) => ({ list, mac: entry.mac, comment: entry.comment }))),
    parse: (raw, field) => checkShape<AccessItem>(AccessItemSchema, raw, field),
    keyOf,
    nameOf: keyOf,
    withName: (item) => item,
    findExisting: (item) => {
      const mac = normalizeMac(item.mac);
      const entry = access.list(item.list).find((row) => row.mac === mac);
      return entry ? { id: localId(item.list, entry.id), name: keyOf(item) } : undefined;
    },
    lookup: (key) => {
      const [list, mac] = key.split(' ');
      if ((list !== 'blacklist' && list !== 'whitelist') || mac === undefined) return undefined;
      const entry = access.list(list).find((row) => row.mac === mac);
      return entry ? { id: localId(list, entry.id), name: key } : undefined;
    },
    isTaken: () => true,
    current: async (id) => itemOf(id),
    validate: async (item) => {
      const mac = normalizeMac(item.mac);
      if (!mac) throw invalid('access_lists.mac', `"${item.mac}" is not a MAC address`);
    },
    create: add,
    // An entry is only its MAC and comment: overwrite replaces it (a new id).
    overwrite: async (id, item) => {
      await access.remove(item.list, Math.abs(id));
      return add(item);
    },
    snapshot: (id) => itemOf(id),
    restore: async (id, snapshot) => {
      const found = entryOf(id);
      if (found) await access.remove(found.list, found.entry.id);
      await add(snapshot as AccessItem);
    },
    remove: async (id) => {
      const found = entryOf(id);
      if (found) await access.remove(found.list, found.entry.id);
    },
  };
}
