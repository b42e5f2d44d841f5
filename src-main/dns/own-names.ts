import { SERVER_IP_MARKER, type DnsRecord } from './dns-contract.js';
import { recordFqdn } from './dns-names.js';

/**
 * The DNS names that lead a browser to this server: the local domain (its
 * `@` auto-record, `bootwright.local` by default), `<server name>.<local
 * domain>` (the server's own answer), the bare server name (a client with the
 * local domain as search domain) and every enabled A record whose value is
 * `{server_ip}` (the auto-records and any an operator added). The Host guard
 * accepts them: they are ours, so a page reached through them is not a
 * DNS-rebinding page.
 */
export function ownDnsNames(records: readonly DnsRecord[], localDomain: string, serverName: string): string[] {
  const server = serverName.toLowerCase();
  const names = [localDomain, `${server}.${localDomain}`, server];
  for (const record of records) {
    if (record.enabled && record.type === 'A' && record.value === SERVER_IP_MARKER) names.push(recordFqdn(record.name, localDomain));
  }
  return [...new Set(names)];
}
