import { Badge, Group, Text } from '@mantine/core';
import type { EffectiveBoot, HostLifecycle, HostView } from '@contracts/hosts';
import { Dim } from '../../components/Dim.js';

/*
 * How a host's next boot and lifecycle state read (issue 18), in the hosts
 * list and on the host page alike.
 */

export const LIFECYCLE_COLORS: Record<HostLifecycle, string> = { new: 'gray', discovered: 'orange', ready: 'blue', installing: 'grape', deployed: 'teal', failed: 'red' };

/** Where a host's next boot comes from, said plainly: its own profile, its group's default, the netboot default, an install task. */
const SOURCE_LABELS: Record<EffectiveBoot['source'], string> = {
  host: 'own',
  group: 'group',
  global_default: 'default',
  task: 'task',
  disabled: 'disabled',
  access_lists: 'denied',
};

/**
 * What the host boots next (issue 18): the effective decision with its
 * source — a group default that reinstalls the machine says so here, and an
 * install stands out — instead of a grey "default".
 */
export function EffectiveBootCell({ boot }: { boot: HostView['effective_boot'] }) {
  if (boot === null) return <Dim />;
  return (
    <Group gap={4} wrap="nowrap" title={boot.text}>
      <Badge size="sm" radius="sm" style={{ flexShrink: 0 }} variant={boot.source === 'global_default' ? 'outline' : 'light'} color={boot.action === 'install' ? 'grape' : boot.action === 'denied' ? 'red' : 'gray'}>
        {SOURCE_LABELS[boot.source]}
      </Badge>
      <Text size="sm" lineClamp={2}>
        {boot.text}
      </Text>
    </Group>
  );
}

/** The lifecycle state as a coloured badge. */
export function LifecycleBadge({ lifecycle }: { lifecycle: HostLifecycle }) {
  return (
    <Badge color={LIFECYCLE_COLORS[lifecycle]} variant="light" radius="sm">
      {lifecycle}
    </Badge>
  );
}
