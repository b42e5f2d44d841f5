import { Alert, Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/**
 * The dashboard's invitation to the first-run wizard: shown to admins until
 * it is completed or skipped (GET /system/first-run). Hidden when the state
 * cannot be read: the rest of the dashboard matters more.
 */
export function FirstRunCard() {
  const isAdmin = useCan('admin');
  const state = useApiQuery(keys.firstRun, isAdmin ? (api) => api.system.firstRun.get() : null, { retry: false });
  const skip = useApiAction((api, _: void) => api.system.firstRun.record('skip'), { invalidate: [keys.firstRun], errorTitle: 'Setup was not skipped' });
  if (!isAdmin || !state.data || state.data.completed || state.data.skipped) return null;
  return (
    <Alert color="blue" title="Set up this server to boot your first machine">
      <Text size="sm">Five steps: the admin password, the interface, DHCP mode, a subnet, and a first profile.</Text>
      <Group gap="xs" mt="xs">
        <Button component={Link} to="/setup" size="xs">
          Start setup
        </Button>
        <Button size="xs" variant="subtle" onClick={() => skip.mutate()} loading={skip.isPending}>
          Skip setup
        </Button>
      </Group>
    </Alert>
  );
}
