import type { Profile } from '../../api/models/profiles.js';
import { useApiList } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** Every profile (up to the API's page limit), for pickers and for showing a host's profile by name. */
export function useProfileOptions() {
  const query = useApiList<Profile>([...keys.profiles, 'options'], '/profiles', { size: 500, sort: 'name' });
  const profiles = query.data?.data ?? [];
  const names = new Map(profiles.map((profile) => [profile.id, profile.name]));
  return {
    query,
    profiles,
    nameOf: (id: number | null) => (id === null ? null : (names.get(id) ?? `#${id}`)),
    options: profiles.map((profile) => ({ value: String(profile.id), label: profile.name })),
  };
}
