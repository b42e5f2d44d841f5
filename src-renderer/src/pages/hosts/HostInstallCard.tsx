import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { FINAL_TASK_STATES } from '@contracts/netboot';
import { Link } from 'react-router';
import { formatRelative } from '../../format.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { TaskStateBadge, taskTarget } from '../netboot/netboot-labels.js';
import { taskPhases } from '../netboot/task-timeline.js';

/** The host's active install task, if it has one: while it is active the machine boots its installer, not its profile. */
export function HostInstallCard({ hostId }: { hostId: number }) {
  const query = useApiPage([...keys.netbootTasks, 'for-host', hostId], { host_id: hostId, size: 50 }, (api, params) => api.netboot.tasks.list(params));
  const active = query.data?.data.find((task) => !FINAL_TASK_STATES.includes(task.state));
  if (!active) return null;
  const reached = taskPhases(active).filter((phase) => phase.status === 'reached');
  return (
    <Card withBorder component="section" aria-labelledby="host-install-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="host-install-title">
          Install in progress
        </Title>
        <TaskStateBadge state={active.state} />
      </Group>
      <Stack gap={4}>
        <Text size="sm">
          <Anchor component={Link} to={`/netboot/tasks/${active.id}`}>
            Task #{active.id}
          </Anchor>{' '}
          installs {taskTarget(active)}; created {formatRelative(active.created_at)}. Until it ends, this machine boots the installer instead of its profile.
        </Text>
        <Text size="sm" c="dimmed">
          {reached.length > 0 ? `Last step: ${reached[reached.length - 1]?.label}` : 'Waiting for the machine to boot.'}
          {active.message ? ` · ${active.message}` : ''}
        </Text>
      </Stack>
    </Card>
  );
}
