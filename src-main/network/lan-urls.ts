import type { HttpEndpoint } from '../core/http-kit/http-endpoint.js';
import { isIpv6LinkLocal } from './ip-math.js';
import type { ServedInterface } from './network-service.js';

/**
 * The web UI's addresses a technician types on another machine of the LAN:
 * `http://<each served address>:<port>`. A specific listen address is the
 * only one (nothing else answers); the wildcard `0.0.0.0` gives every served
 * IPv4 address, `::` every served IPv4 and IPv6 one (link-local left out:
 * a browser needs a zone for it). Empty when nothing is served yet.
 */
export function lanUrls(served: readonly ServedInterface[], http: Pick<HttpEndpoint, 'scheme' | 'listenHost'>, port: number): string[] {
  const url = (address: string) => `${http.scheme}://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const host = http.listenHost;
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return [url(host)];
  const urls = new Set<string>();
  for (const nic of served) {
    for (const subnet of nic.ipv4) urls.add(url(subnet.address));
    if (host === '::' || host === '') for (const subnet of nic.ipv6) if (!isIpv6LinkLocal(subnet.address)) urls.add(url(subnet.address));
  }
  return [...urls];
}
