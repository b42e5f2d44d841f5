import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const OPTION_PARAMS = { size: 500, sort: 'name' };

/** Every profile (up to the API's page limit), for pickers and for showing a host's profile by name. */
export function useProfileOptions() {
  const query = useApiPage([...keys.profiles, 'options'], OPTION_PARAMS, (api, params) => api.profiles.list(params));
  const profiles = query.data?.data ?? [];
  const names = new Map(profiles.map((profile) => [profile.id, profile.name]));
  return {
    query,
    profiles,
    nameOf: (id: number | null) => (id === null ? null : (names.get(id) ?? `#${id}`)),
    options: profiles.map((profile) => ({ value: String(profile.id), label: profile.name })),
  };
}
