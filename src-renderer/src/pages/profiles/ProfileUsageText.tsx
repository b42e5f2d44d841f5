import { Anchor, Text } from '@mantine/core';
import type { ProfileUsage } from '@contracts/profiles';
import { Link } from 'react-router';

const hostsWord = (count: number) => (count === 1 ? '1 host' : `${count} hosts`);

/**
 * "Used by 3 hosts + 5 by group" (issue 18): who boots a profile now. The
 * assigned count links to the hosts list filtered on the profile.
 */
export function ProfileUsageText({ profileId, usage, prefix = '' }: { profileId: number; usage: ProfileUsage; prefix?: string }) {
  if (usage.assigned === 0 && usage.by_group === 0) {
    return (
      <Text component="span" size="sm" c="dimmed">
        {prefix}no host
      </Text>
    );
  }
  return (
    <Text component="span" size="sm">
      {prefix}
      {usage.assigned > 0 && (
        <Anchor component={Link} to={`/hosts?profile_id=${profileId}`} inherit>
          {hostsWord(usage.assigned)}
        </Anchor>
      )}
      {usage.assigned > 0 && usage.by_group > 0 && ' + '}
      {usage.by_group > 0 && `${hostsWord(usage.by_group)} by group`}
    </Text>
  );
}
