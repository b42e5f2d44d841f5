export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export interface DnsSettings {
  enabled: boolean;
  port: number;
  local_domain: string;
  /** `<ip>[:port]` entries separated by commas or whitespace; IPv6 as `[addr]:port` or bare. */
  upstream: string;
}

export interface DnsRecord {
  id: number;
  name: string;
  type: DnsRecordType;
  value: string;
  ttl: number;
  priority: number | null;
  subnet: string | null;
  enabled: boolean;
  comment: string;
  created_at: string;
  updated_at: string;
}

export interface DnsRecordInput {
  name: string;
  type: DnsRecordType;
  value: string;
  ttl?: number;
  priority?: number | null;
  subnet?: string | null;
  enabled?: boolean;
  comment?: string;
}
