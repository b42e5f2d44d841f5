import type { ServiceStatus } from '@contracts/services';
import { Alert, Card, Group, Stack, Text } from '@mantine/core';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatUptime } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { AutoStartSwitch, ServiceButtons } from './ServiceControls.js';

/** How often a service page looks at its service's state again (a failure shows without a reload). */
const REFRESH_MS = 5_000;

/**
 * The state of one service at the top of its page (issue 18): running,
 * stopped or failed, where it listens, for how long, its last error in full
 * and start/stop/restart — so "enabled: on" in the settings below is never
 * taken for "running".
 */
export function ServiceStateHeader({ name }: { name: string }) {
  const query = useApiQuery(keys.services, (api) => api.services.list(), { refetchInterval: REFRESH_MS });
  const canRun = useCan('operator');
  const service = query.data?.find((candidate) => candidate.name === name);
  if (!service) return null;
  return (
    <Card withBorder component="section" aria-label={`${name.toUpperCase()} service state`} padding="sm">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <StatusBadge value={service.state} />
            <Text size="sm">{describe(service)}</Text>
          </Group>
          {canRun && (
            <Group gap="md" wrap="wrap">
              <AutoStartSwitch service={service} />
              <ServiceButtons service={service} />
            </Group>
          )}
        </Group>
        {service.state === 'failed' && (
          <Alert color="red" title={`${name.toUpperCase()} is not running: it failed`}>
            <Text size="sm" className="pre-wrap">
              {service.last_error ?? 'It failed without saying why; see the log.'}
            </Text>
          </Alert>
        )}
        {service.state === 'stopped' && (
          <Alert color="gray" title={`${name.toUpperCase()} is stopped`}>
            <Text size="sm">Nothing answers until it is started{service.auto_start ? '' : ', and it will not start with Bootwright (auto-start is off)'}.</Text>
          </Alert>
        )}
        {service.state === 'running' && service.notice !== null && (
          <Alert color="orange" title="Running, but">
            <Text size="sm">{service.notice}</Text>
          </Alert>
        )}
        {service.state !== 'failed' && service.last_error !== null && (
          <Text size="xs" c="dimmed" className="pre-wrap">
            Last error: {service.last_error}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function describe(service: ServiceStatus) {
  if (service.state !== 'running') return <Dim>{service.auto_start ? 'Starts with Bootwright' : 'Auto-start off'}</Dim>;
  const listen = service.listen.length > 0 ? service.listen.join(', ') : 'no address';
  return (
    <>
      Listening on <span className="mono">{listen}</span> · up {formatUptime(service.uptime_seconds)}
    </>
  );
}
