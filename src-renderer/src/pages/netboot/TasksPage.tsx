import { Anchor, Button, Stack, Text } from '@mantine/core';
import { TASK_STATES, type InstallTask } from '@contracts/netboot';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useHostOptions } from '../power/use-host-options.js';
import { CreateTaskDialog } from './CreateTaskDialog.js';
import { TASK_STATE_LABELS, TaskStateBadge, taskTarget } from './netboot-labels.js';

/** `/netboot/tasks`: install tasks with state, MAC and host filters; a task opens its timeline. */
export function TasksPage() {
  const table = useTableParams({ filters: ['state', 'mac', 'host_id'] as const });
  const query = useApiPage(keys.netbootTasks, table.apiParams, (api, params) => api.netboot.tasks.list(params));
  const hosts = useHostOptions();
  const canEdit = useCan('operator');
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const columns: Column<InstallTask>[] = [
    {
      key: 'id',
      header: 'Task',
      sortKey: 'id',
      render: (task) => (
        <Anchor component={Link} to={`/netboot/tasks/${task.id}`} size="sm" fw={500}>
          #{task.id}
        </Anchor>
      ),
    },
    { key: 'state', header: 'State', sortKey: 'state', render: (task) => <TaskStateBadge state={task.state} /> },
    {
      key: 'machine',
      header: 'Machine',
      render: (task) => (
        <Stack gap={0}>
          {task.host_id !== null && (
            <Anchor component={Link} to={`/hosts/${task.host_id}`} size="sm">
              {hosts.nameOf(task.host_id)}
            </Anchor>
          )}
          <Text size="xs" c="dimmed" className="mono">
            {task.mac}
          </Text>
        </Stack>
      ),
    },
    { key: 'target', header: 'Installs', render: (task) => taskTarget(task) },
    { key: 'message', header: 'Last message', render: (task) => (task.message ? <Text size="sm" lineClamp={2}>{task.message}</Text> : <Dim />) },
    { key: 'created_at', header: 'Created', sortKey: 'created_at', render: (task) => <span title={formatDateTime(task.created_at)}>{formatRelative(task.created_at)}</span> },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="Install tasks"
        description="Unattended installs: when the machine boots, it runs its task's installer with the answer file; afterwards it boots its disk (or its profile)."
        actions={canEdit && <Button onClick={() => setCreating(true)}>New install task</Button>}
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search tasks', placeholder: 'Search MAC, distro, message' }}
        filters={[
          { kind: 'select', name: 'state', label: 'State', options: TASK_STATES.map((state) => ({ value: state, label: TASK_STATE_LABELS[state] })), width: 150 },
          { kind: 'text', name: 'mac', label: 'MAC address', width: 180 },
          { kind: 'select', name: 'host_id', label: 'Host', options: hosts.options, width: 200 },
        ]}
      />
      <ServerTable label="Install tasks" columns={columns} query={query} table={table} rowKey={(task) => task.id} emptyText="No install task yet. Start one from the catalog or a host's page." />
      {creating && <CreateTaskDialog opened onClose={() => setCreating(false)} onCreated={(task) => void navigate(`/netboot/tasks/${task.id}`)} />}
    </Stack>
  );
}
