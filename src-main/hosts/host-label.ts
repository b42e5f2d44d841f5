import type { Host } from './host-types.js';

/**
 * How messages name a host for people: its host name, else its MAC, with the
 * id last for lookups — `web01 (#14)`, `52:54:00:12:34:56 (#15)` — never a
 * bare "host 14" (issue 18: names, not ids).
 */
export function hostLabel(host: Pick<Host, 'id' | 'hostname' | 'mac'>): string {
  return `${host.hostname ?? host.mac} (#${host.id})`;
}
