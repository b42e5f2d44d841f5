import type { PowerRequest as HostPowerAction } from '@contracts/power';
import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const ACTIONS: { action: HostPowerAction; label: string; confirm?: string }[] = [
  { action: 'on', label: 'Power on' },
  { action: 'soft', label: 'Shut down', confirm: 'asks the operating system to shut down (ACPI)' },
  { action: 'off', label: 'Power off', confirm: 'cuts the power at once, like holding the power button' },
  { action: 'reset', label: 'Reset', confirm: 'resets the machine at once' },
  { action: 'cycle', label: 'Power cycle', confirm: 'turns the power off and on again' },
  { action: 'status', label: 'Read state' },
];

/** Power through the host's BMC config (POST /hosts/{id}/power), or how to add one. */
export function HostPowerCard({ hostId, hostName }: { hostId: number; hostName: string }) {
  const canOperate = useCan('operator');
  const confirm = useConfirm();
  const configs = useApiPage([...keys.bmc, 'for-host'], { host_id: hostId }, (api, params) => api.power.bmc.list(params));
  const power = useApiAction((api, action: HostPowerAction) => api.power.hosts.power(hostId, action), {
    invalidate: [keys.bmc],
    errorTitle: `Power action on ${hostName} failed`,
    success: (result) => `${result.action}: the machine is ${result.power_state ?? 'in an unknown state'}.`,
  });
  return (
    <Card withBorder component="section" aria-labelledby="host-power-title">
      <Title order={2} size="h4" id="host-power-title" mb="sm">
        Power
      </Title>
      <QueryState query={configs} what="the BMC config">
        {(list) => {
          const config = list.data[0];
          if (!config) {
            return (
              <Text size="sm" c="dimmed">
                No BMC is configured for this host; it can still be woken with Wake-on-LAN.{' '}
                {canOperate && (
                  <Anchor component={Link} to="/bmc">
                    Add a BMC config
                  </Anchor>
                )}
              </Text>
            );
          }
          return (
            <Stack gap="sm">
              <Group gap="xs">
                <Text size="sm">
                  BMC{' '}
                  <Anchor component={Link} to={`/bmc?q=${encodeURIComponent(config.name)}`}>
                    {config.name}
                  </Anchor>{' '}
                  ({config.protocol} {config.address}):
                </Text>
                <StatusBadge value={config.power_state ?? 'unknown'} label={powerLabel(config)} />
                {config.last_checked_at && (
                  <Text size="xs" c="dimmed">
                    {config.power_state === null ? 'last tried' : 'read'} {formatDateTime(config.last_checked_at)}
                  </Text>
                )}
              </Group>
              {config.last_error && (
                <Text size="sm" c="red">
                  Last error: {config.last_error}
                </Text>
              )}
              {canOperate && (
                <Group gap="xs">
                  {ACTIONS.map(({ action, label, confirm: effect }) => (
                    <Button
                      key={action}
                      size="xs"
                      variant={effect ? 'light' : 'default'}
                      color={effect ? 'red' : undefined}
                      loading={power.isPending && power.variables === action}
                      disabled={power.isPending}
                      onClick={async () => {
                        if (effect && !(await confirm({ title: `${label} ${hostName}?`, message: `This ${effect}.`, confirmLabel: label }))) return;
                        power.mutate(action);
                      }}
                    >
                      {label}
                    </Button>
                  ))}
                </Group>
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}

/** The badge: the state read, "unknown" when the last read failed, "not read yet" before the first try. */
function powerLabel(config: { power_state: string | null; last_checked_at: string | null }): string {
  if (config.power_state !== null) return config.power_state;
  return config.last_checked_at === null ? 'not read yet' : 'unknown';
}
