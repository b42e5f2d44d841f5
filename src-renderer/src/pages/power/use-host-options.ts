import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const OPTION_PARAMS = { size: 500, sort: 'hostname' };

/** Hosts for pickers (up to the API's page limit), labelled by name and MAC. */
export function useHostOptions() {
  const query = useApiPage([...keys.hosts, 'options'], OPTION_PARAMS, (api, params) => api.hosts.list(params));
  const hosts = query.data?.data ?? [];
  const names = new Map(hosts.map((host) => [host.id, host.hostname ?? host.mac]));
  return {
    query,
    hosts,
    nameOf: (id: number | null) => (id === null ? null : (names.get(id) ?? `#${id}`)),
    options: hosts.map((host) => ({ value: String(host.id), label: host.hostname ? `${host.hostname} (${host.mac})` : host.mac })),
  };
}
