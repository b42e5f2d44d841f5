import type { ServiceAction, ServiceStatus } from '@contracts/services';
import { Button, Group, Switch } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notifyError } from '../../components/notify.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ACTION_LABELS, actionDisabled, actionsFor } from './service-actions.js';

/** Puts a service the API answered with into the cached list at once, so a control never shows the old state until the refetch. */
function useStoreService() {
  const queryClient = useQueryClient();
  return (updated: ServiceStatus) =>
    queryClient.setQueryData<ServiceStatus[]>(keys.services, (list) => list?.map((service) => (service.name === updated.name ? updated : service)));
}

/** Start/Stop/Restart for one service (operator); the dashboard and the services page share it. */
export function ServiceButtons({ service, size = 'xs' }: { service: ServiceStatus; size?: 'xs' | 'compact-xs' }) {
  const store = useStoreService();
  const run = useApiAction(
    (api, action: ServiceAction) => api.services.run(service.name, action),
    {
      invalidate: [keys.services, keys.status, keys.alerts],
      errorTitle: `${service.name} could not be changed`,
      onSuccess: (updated) => {
        store(updated);
        // The API answers a start that failed with the service in state "failed" (200, not an error): say so as loudly as an error.
        if (updated.state === 'failed') notifyError(new Error(updated.last_error ?? 'it failed without saying why; see the log'), `${service.name} did not start`);
      },
    },
  );
  if (service.protected) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {actionsFor(service).map((action) => (
        <Button
          key={action}
          size={size}
          variant={action === 'stop' ? 'light' : 'default'}
          color={action === 'stop' ? 'red' : undefined}
          disabled={run.isPending || actionDisabled(service, action)}
          loading={run.isPending && run.variables === action}
          aria-label={`${ACTION_LABELS[action]} ${service.name}`}
          onClick={() => run.mutate(action)}
        >
          {ACTION_LABELS[action]}
        </Button>
      ))}
    </Group>
  );
}

/** The auto-start switch of one service (operator). */
export function AutoStartSwitch({ service }: { service: ServiceStatus }) {
  const store = useStoreService();
  const save = useApiAction(
    (api, autoStart: boolean) => api.services.setAutoStart(service.name, autoStart),
    { invalidate: [keys.services], errorTitle: `Auto-start of ${service.name} was not changed`, onSuccess: store },
  );
  // Set in the change handler itself, so the switch shows the new position at once (not the old one until the request ends).
  const [wanted, setWanted] = useState<boolean | null>(null);
  const checked = wanted ?? service.auto_start;
  return (
    <Switch
      checked={checked}
      disabled={save.isPending}
      aria-label={`Auto-start ${service.name}`}
      label={checked ? 'On' : 'Off'}
      onChange={(event) => {
        const next = event.currentTarget.checked;
        setWanted(next);
        save.mutate(next, { onSettled: () => setWanted(null) });
      }}
    />
  );
}
