import { AppError, conflict, notFound, type FieldError } from '../core/errors.js';
import { printableProblem } from '../core/printable-text.js';
import type { EventLog } from '../events/event-log.js';
import { ipFamily, normalizeIp, parseSubnet } from '../network/ip-math.js';
import { notOneMachineProblem } from '../network/special-addresses.js';
import type { Collection, NewRow } from '../store/collection.js';
import type { Store } from '../store/store.js';
import {
  DEFAULT_TTL,
  DNS_RECORD_TYPES,
  MAX_COMMENT_LENGTH,
  MAX_RECORDS,
  MAX_TTL,
  MAX_TXT_BYTES,
  SERVER_IP_MARKER,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordPatch,
} from './dns-contract.js';
import { APEX, canonicalName, domainProblem, MAX_NAME_LENGTH, recordFqdn } from './dns-names.js';

export type DnsRecordFields = NewRow<DnsRecord>;

/**
 * Validates a record's fields and returns them normalised (names lowercase,
 * IPv6 in RFC 5952 form, subnet canonical). `field` prefixes error paths.
 */
export function checkRecord(input: DnsRecordInput, localDomain: string, field: (name: string) => string = (name) => `body.${name}`): { value: DnsRecordFields; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (name: string, message: string) => errors.push({ field: field(name), message });

  const name = input.name === APEX ? APEX : input.name.toLowerCase();
  if (name !== APEX) {
    const problem = domainProblem(canonicalName(name));
    if (problem) fail('name', `"${input.name}" ${problem}`);
    else if (recordFqdn(name, localDomain).length > MAX_NAME_LENGTH) {
      fail('name', `"${input.name}" with the local domain ${localDomain} is longer than ${MAX_NAME_LENGTH} characters`);
    }
  }

  const type = input.type;
  let value = input.value;
  switch (type) {
    case 'A':
      if (value !== SERVER_IP_MARKER && ipFamily(value) !== 'ipv4') fail('value', `"${value}" is not an IPv4 address (or ${SERVER_IP_MARKER})`);
      else if (value !== SERVER_IP_MARKER && notOneMachineProblem(value)) fail('value', notOneMachineProblem(value)!);
      break;
    case 'AAAA':
      if (ipFamily(value) !== 'ipv6') fail('value', `"${value}" is not an IPv6 address`);
      else {
        value = normalizeIp(value) ?? value;
        const problem = notOneMachineProblem(value);
        if (problem) fail('value', problem);
      }
      break;
    case 'CNAME':
    case 'MX': {
      value = value === APEX ? APEX : value.toLowerCase();
      const problem = value === APEX ? null : domainProblem(canonicalName(value));
      if (problem) fail('value', `"${input.value}" is not a host name: it ${problem}`);
      break;
    }
    case 'TXT': {
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes === 0) fail('value', 'TXT text must not be empty');
      if (bytes > MAX_TXT_BYTES) fail('value', `TXT text is ${bytes} bytes; at most ${MAX_TXT_BYTES} are allowed`);
      break;
    }
    default:
      fail('type', `"${String(type)}" is not one of ${DNS_RECORD_TYPES.join(', ')}`);
  }
  if (type === 'CNAME' && name === APEX) fail('name', 'a CNAME cannot be at the apex "@": the apex has the SOA and NS records (RFC 1912 §2.4)');

  const priority = input.priority ?? null;
  if (type === 'MX' && priority === null) fail('priority', 'is required for an MX record (the preference, 0-65535)');
  if (type !== 'MX' && priority !== null) fail('priority', `is only for MX records; send null or leave it out for ${type}`);

  let subnet = input.subnet ?? null;
  if (subnet !== null) {
    try {
      subnet = parseSubnet(subnet).cidr;
    } catch (err) {
      fail('subnet', (err as Error).message);
    }
  }

  const ttl = input.ttl ?? DEFAULT_TTL;
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL) fail('ttl', `must be an integer from 0 to ${MAX_TTL}`);
  const comment = input.comment ?? '';
  if (comment.length > MAX_COMMENT_LENGTH) fail('comment', `is longer than ${MAX_COMMENT_LENGTH} characters`);
  else {
    const problem = printableProblem(comment);
    if (problem) fail('comment', problem);
  }

  return { value: { name, type, value, ttl, priority, subnet, enabled: input.enabled ?? true, comment }, errors };
}

/** The identity of a record's data: two records with equal keys are duplicates (RFC 2181 §5: no duplicate RRs in a set). */
function dataKey(record: DnsRecordFields, localDomain: string): string {
  const value = record.type === 'CNAME' || record.type === 'MX' ? canonicalName(record.value) : record.value;
  return `${recordFqdn(record.name, localDomain)}|${record.type}|${value}|${record.subnet ?? ''}`;
}

function throwIfInvalid(errors: FieldError[]): void {
  if (errors.length === 0) return;
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}${more}`, { details: errors });
}

/**
 * The explicit DNS records (collection `dns_records` in the config store):
 * validated CRUD with the duplicate and CNAME rules, events, and a change
 * signal the DNS server republishes its answer data on.
 */
export class DnsRecords {
  readonly collection: Collection<DnsRecord>;
  private readonly events: EventLog;
  private readonly localDomain: () => string;
  private readonly listeners = new Set<() => void>();

  constructor(deps: { store: Store; events: EventLog; localDomain: () => string }) {
    this.collection = deps.store.collection<DnsRecord>('dns_records');
    this.events = deps.events;
    this.localDomain = deps.localDomain;
  }

  all(): readonly DnsRecord[] {
    return this.collection.all();
  }

  get(id: number): DnsRecord {
    const record = this.collection.get(id);
    if (!record) throw notFound('DNS record', id);
    return record;
  }

  /** The checks of create (existingId undefined) or of a full update of that record, writing nothing (the kit import checks everything first). */
  validate(input: DnsRecordInput, existingId?: number): void {
    const domain = this.localDomain();
    const { value, errors } = checkRecord(input, domain);
    throwIfInvalid(errors);
    this.checkConflicts(value, existingId ?? null, domain);
  }

  async create(input: DnsRecordInput): Promise<DnsRecord> {
    const domain = this.localDomain();
    const { value, errors } = checkRecord(input, domain);
    throwIfInvalid(errors);
    if (this.collection.size >= MAX_RECORDS) {
      throw new AppError('INVALID_STATE', `there are already ${MAX_RECORDS} DNS records, the most Bootwright keeps; delete some first`);
    }
    this.checkConflicts(value, null, domain);
    const record = await this.collection.insert(value);
    this.changed();
    this.events.emit({ kind: 'dns.record.created', message: `DNS record ${record.name} ${record.type} created`, detail: eventDetail(record) });
    return record;
  }

  /** Changes the fields given; the merged record is validated as a whole. Changing `type` away from MX drops `priority`. */
  async update(id: number, patch: DnsRecordPatch): Promise<DnsRecord> {
    const current = this.get(id);
    const domain = this.localDomain();
    const type = patch.type ?? current.type;
    const priority = patch.priority !== undefined ? patch.priority : type === 'MX' ? current.priority : null;
    const merged: DnsRecordInput = { ...current, ...patch, type, priority };
    const { value, errors } = checkRecord(merged, domain);
    throwIfInvalid(errors);
    this.checkConflicts(value, id, domain);
    const record = (await this.collection.update(id, value))!;
    this.changed();
    this.events.emit({ kind: 'dns.record.updated', message: `DNS record ${record.name} ${record.type} updated`, detail: eventDetail(record) });
    return record;
  }

  async remove(id: number): Promise<DnsRecord> {
    const record = await this.collection.remove(id);
    if (!record) throw notFound('DNS record', id);
    this.changed();
    this.events.emit({ kind: 'dns.record.deleted', message: `DNS record ${record.name} ${record.type} deleted`, detail: eventDetail(record) });
    return record;
  }

  /** Subscribes to any change of the records; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records whose name is `fqdn` under the current local domain. */
  byName(fqdn: string): DnsRecord[] {
    const domain = this.localDomain();
    return this.collection.filter((record) => recordFqdn(record.name, domain) === fqdn);
  }

  private checkConflicts(record: DnsRecordFields, selfId: number | null, domain: string): void {
    const fqdn = recordFqdn(record.name, domain);
    const key = dataKey(record, domain);
    for (const other of this.collection.all()) {
      if (other.id === selfId || recordFqdn(other.name, domain) !== fqdn) continue;
      if (dataKey(other, domain) === key) {
        throw conflict(`the ${other.type} record ${other.name} → ${other.value} (#${other.id}) already exists${record.subnet ? ` for ${record.subnet}` : ''}`, [
          { field: 'body.value', message: `duplicate of the ${other.type} record ${other.name} → ${other.value} (#${other.id})` },
        ]);
      }
      if (record.type === 'CNAME' || other.type === 'CNAME') {
        throw conflict(`a CNAME cannot share its name with another record (RFC 1034 §3.6.2): ${other.name} already has the ${other.type} record → ${other.value} (#${other.id})`, [
          { field: 'body.name', message: `the ${other.type} record ${other.name} → ${other.value} (#${other.id}) already uses this name` },
        ]);
      }
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function eventDetail(record: DnsRecord): Record<string, unknown> {
  return { id: record.id, name: record.name, type: record.type, value: record.value, subnet: record.subnet };
}
