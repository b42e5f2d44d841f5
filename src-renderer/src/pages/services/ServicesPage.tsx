import { SERVICE_ACTIONS, type ServiceAction } from '@contracts/services';
import { Anchor, Button, Checkbox, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatUptime } from '../../format.js';
import { useNow } from '../../hooks.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ACTION_LABELS, SERVICE_PAGES } from './service-actions.js';
import { AutoStartSwitch, ServiceButtons } from './ServiceControls.js';

function BatchBar({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const confirm = useConfirm();
  const batch = useApiAction((api, action: ServiceAction) => api.services.batch(action, selected), {
    invalidate: [keys.services, keys.status],
    onSuccess: (results, action) => {
      const failed = results.filter((result) => !result.ok);
      if (failed.length === 0) notifySuccess(`${ACTION_LABELS[action]}: ${results.length} service(s) done.`);
      else notifyError(new Error(failed.map((result) => `${result.name}: ${result.error ?? 'failed'}`).join('; ')), `${ACTION_LABELS[action]} failed for ${failed.length} service(s)`);
      onDone();
    },
  });
  const run = async (action: ServiceAction) => {
    if (action !== 'start') {
      const ok = await confirm({
        title: `${ACTION_LABELS[action]} ${selected.length} service(s)?`,
        message: `${selected.join(', ')} will be ${action === 'stop' ? 'stopped' : 'restarted'}; machines booting right now may fail.`,
        confirmLabel: ACTION_LABELS[action],
      });
      if (!ok) return;
    }
    batch.mutate(action);
  };
  return (
    <Group gap="xs" role="group" aria-label="Batch actions">
      <Text size="sm">{selected.length} selected</Text>
      {SERVICE_ACTIONS.map((action) => (
        <Button key={action} size="xs" variant="default" disabled={selected.length === 0 || batch.isPending} onClick={() => void run(action)}>
          {ACTION_LABELS[action]} selected
        </Button>
      ))}
    </Group>
  );
}

/** GET /services as a table with lifecycle buttons, auto-start switches and batch actions; live through service events. */
export function ServicesPage() {
  const query = useApiQuery(keys.services, (api) => api.services.list());
  const canOperate = useCan('operator');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const now = useNow(1000);
  const fetchedAt = query.dataUpdatedAt;
  const elapsed = Math.max(0, Math.floor((now - fetchedAt) / 1000));

  return (
    <Stack gap="md">
      <PageHeader
        title="Services"
        description="The network services Bootwright runs. Changes by others show up live."
        actions={
          <Button variant="default" onClick={() => void query.refetch()} loading={query.isFetching && !query.isPending}>
            Refresh
          </Button>
        }
      />
      <QueryState query={query} what="services">
        {(services) => {
          if (services.length === 0) return <EmptyState>No services are registered.</EmptyState>;
          const selectable = services.filter((service) => !service.protected);
          const chosen = selectable.filter((service) => selected.has(service.name)).map((service) => service.name);
          return (
            <>
              {canOperate && <BatchBar selected={chosen} onDone={() => setSelected(new Set())} />}
              <Table.ScrollContainer minWidth={900}>
                <Table striped highlightOnHover verticalSpacing="sm">
                  <caption className="visually-hidden">Network services and their states</caption>
                  <Table.Thead>
                    <Table.Tr>
                      {canOperate && (
                        <Table.Th w={40}>
                          <Checkbox
                            aria-label="Select all services"
                            checked={chosen.length > 0 && chosen.length === selectable.length}
                            indeterminate={chosen.length > 0 && chosen.length < selectable.length}
                            onChange={(event) => setSelected(event.currentTarget.checked ? new Set(selectable.map((service) => service.name)) : new Set())}
                          />
                        </Table.Th>
                      )}
                      <Table.Th>Service</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Listening on</Table.Th>
                      <Table.Th ta="right">Uptime</Table.Th>
                      <Table.Th>Last error or notice</Table.Th>
                      <Table.Th>Auto-start</Table.Th>
                      {canOperate && <Table.Th>Actions</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {services.map((service) => (
                      <Table.Tr key={service.name}>
                        {canOperate && (
                          <Table.Td>
                            {!service.protected && (
                              <Checkbox
                                aria-label={`Select ${service.name}`}
                                checked={selected.has(service.name)}
                                onChange={(event) => {
                                  const next = new Set(selected);
                                  if (event.currentTarget.checked) next.add(service.name);
                                  else next.delete(service.name);
                                  setSelected(next);
                                }}
                              />
                            )}
                          </Table.Td>
                        )}
                        <Table.Th scope="row" fw="normal">
                          <Text fw={600} size="sm">
                            {SERVICE_PAGES[service.name] ? (
                              <Anchor component={Link} to={SERVICE_PAGES[service.name]!} inherit>
                                {service.name}
                              </Anchor>
                            ) : (
                              service.name
                            )}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {service.description}
                          </Text>
                        </Table.Th>
                        <Table.Td>
                          <StatusBadge value={service.state} />
                        </Table.Td>
                        <Table.Td>
                          {service.listen.length > 0 ? (
                            service.listen.map((address) => (
                              <div key={address}>
                                <Code className="nowrap">{address}</Code>
                              </div>
                            ))
                          ) : (
                            <Dim />
                          )}
                        </Table.Td>
                        <Table.Td ta="right" className="nowrap">
                          {formatUptime(service.uptime_seconds === null ? null : service.uptime_seconds + elapsed)}
                        </Table.Td>
                        <Table.Td maw={320}>
                          {service.last_error ? (
                            <Text size="sm" c="red" className="pre-wrap">
                              {service.last_error}
                            </Text>
                          ) : service.notice ? (
                            <Text size="sm" c="orange.8" className="pre-wrap">
                              {service.notice}
                            </Text>
                          ) : (
                            <Dim />
                          )}
                        </Table.Td>
                        <Table.Td>{canOperate ? <AutoStartSwitch service={service} /> : service.auto_start ? 'On' : 'Off'}</Table.Td>
                        {canOperate && (
                          <Table.Td>
                            {service.protected ? (
                              <Text size="sm" c="dimmed" title="This service serves the API and the web UI">
                                Always on
                              </Text>
                            ) : (
                              <ServiceButtons service={service} />
                            )}
                          </Table.Td>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </>
          );
        }}
      </QueryState>
    </Stack>
  );
}
