import type { Alert as AlertData } from '@contracts/alerts';
import { ActionIcon, Anchor, Badge, Button, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useCan } from '../app-state.js';
import { formatRelative } from '../format.js';
import { useApiAction, useApiQuery } from '../query/api-hooks.js';
import { keys } from '../query/keys.js';

/** How often the header looks for new alerts (they are conditions, read on demand: GET /alerts). */
const REFRESH_MS = 15_000;

/**
 * The alert centre in the header (issue 18): a bell with the number of
 * active alerts (red when one is an error) that opens the list — failed
 * services, foreign DHCP servers, missing boot loaders, clients stuck on a
 * missing file, failing BMCs — each in full, with the page that fixes it and
 * Dismiss for operators. docs/alerts.md.
 */
export function AlertCenter() {
  const query = useApiQuery(keys.alerts, (api) => api.alerts.list(), { refetchInterval: REFRESH_MS });
  const alerts = query.data ?? [];
  const errors = alerts.filter((alert) => alert.severity === 'error').length;
  const label = alerts.length === 0 ? 'Alerts: none' : `Alerts: ${alerts.length}${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}`;
  return (
    <Popover width={420} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator label={alerts.length} size={16} color={errors > 0 ? 'red' : 'orange'} disabled={alerts.length === 0} offset={4}>
          <ActionIcon variant="subtle" color="gray" aria-label={label} title={label}>
            <BellIcon />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={700} size="sm" mb="xs">
          Alerts
        </Text>
        {alerts.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing needs attention.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={440} type="auto">
            <Stack gap="sm" component="ul" className="plain-list" aria-label="Alerts">
              {alerts.map((alert) => (
                <AlertItem key={alert.id} alert={alert} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

function AlertItem({ alert }: { alert: AlertData }) {
  const canDismiss = useCan('operator');
  const dismiss = useApiAction((api, id: string) => api.alerts.dismiss(id), { invalidate: [keys.alerts], errorTitle: 'The alert was not dismissed' });
  return (
    <li>
      <Stack gap={4}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge color={alert.severity === 'error' ? 'red' : 'orange'} variant="light" size="sm">
            {alert.severity}
          </Badge>
          <Text size="sm" fw={600}>
            {alert.title}
          </Text>
        </Group>
        <Text size="sm" className="pre-wrap">
          {alert.message}
        </Text>
        <Group gap="sm">
          {alert.link && (
            <Anchor component={Link} to={alert.link} size="sm">
              Open
            </Anchor>
          )}
          {alert.since && (
            <Text size="xs" c="dimmed">
              since {formatRelative(alert.since)}
            </Text>
          )}
          {canDismiss && (
            <Button size="compact-xs" variant="subtle" color="gray" loading={dismiss.isPending} aria-label={`Dismiss: ${alert.title}`} onClick={() => dismiss.mutate(alert.id)}>
              Dismiss
            </Button>
          )}
        </Group>
      </Stack>
    </li>
  );
}

function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
}
