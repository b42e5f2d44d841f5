import type { DnsRecord, DnsRecordInput, DnsRecordPatch, DnsSettings, DnsSettingsPatch } from '@contracts/dns';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The DNS area's API (src-main/dns/dns-routes.ts), typed by its contract. */
export function dnsClient(client: ApiClient) {
  return {
    settings: {
      get: (): Promise<DnsSettings> => client.get('/services/dns'),
      update: (patch: DnsSettingsPatch): Promise<DnsSettings> => client.put('/services/dns', patch),
    },
    records: {
      list: (params: ListParams = {}): Promise<ListResult<DnsRecord>> => client.list(withQuery('/dns/records', params)),
      get: (id: number): Promise<DnsRecord> => client.get(`/dns/records/${segment(id)}`),
      create: (input: DnsRecordInput): Promise<DnsRecord> => client.post('/dns/records', input),
      update: (id: number, patch: DnsRecordPatch): Promise<DnsRecord> => client.put(`/dns/records/${segment(id)}`, patch),
      remove: (id: number): Promise<DnsRecord> => client.delete(`/dns/records/${segment(id)}`),
    },
  };
}
