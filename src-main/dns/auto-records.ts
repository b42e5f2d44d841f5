import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { DEFAULT_TTL, SERVER_IP_MARKER } from './dns-contract.js';
import { APEX, recordFqdn } from './dns-names.js';
import type { DnsRecords } from './dns-records.js';

interface AutoRecordState {
  /** Record names (`@`, server names) the service has created once; never created again. */
  created_for: string[];
}

export const AUTO_RECORD_COMMENT = 'auto-record: the server address on the client\'s subnet';

/**
 * The auto-records (spec, DNS server behaviour 4): an `@` A record and an A
 * record named after the server, both with the value `{server_ip}`.
 *
 * Rule: each name is created at most once, remembered in the store section
 * `dns_auto_records`. A user's edit or deletion therefore sticks across
 * restarts; a new server name gets its record at the next start (the old
 * name's record stays until the user deletes it). A name that already has an
 * A or CNAME record when its turn comes is left alone and remembered.
 */
export class AutoRecords {
  private readonly state: Section<AutoRecordState>;
  private readonly records: DnsRecords;
  private readonly localDomain: () => string;

  constructor(deps: { store: Store; records: DnsRecords; localDomain: () => string }) {
    this.state = deps.store.section<AutoRecordState>('dns_auto_records', { created_for: [] });
    this.records = deps.records;
    this.localDomain = deps.localDomain;
  }

  /** Creates the missing auto-records; returns the names created now. */
  async ensure(serverName: string): Promise<string[]> {
    const done = new Set(this.state.get().created_for);
    const created: string[] = [];
    for (const name of [APEX, serverName.toLowerCase()]) {
      if (done.has(name)) continue;
      const fqdn = recordFqdn(name, this.localDomain());
      const taken = this.records.byName(fqdn).some((record) => record.type === 'A' || record.type === 'CNAME');
      if (!taken) {
        await this.records.create({ name, type: 'A', value: SERVER_IP_MARKER, ttl: DEFAULT_TTL, comment: AUTO_RECORD_COMMENT });
        created.push(name);
      }
      done.add(name);
    }
    if (created.length > 0 || done.size !== this.state.get().created_for.length) await this.state.set({ created_for: [...done] });
    return created;
  }
}
