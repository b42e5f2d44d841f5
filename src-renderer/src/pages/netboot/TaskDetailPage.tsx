import { Anchor, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { FINAL_TASK_STATES, type InstallTask, type TaskUpdate } from '@contracts/netboot';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useCan, useLiveEvents } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { DetailLoadError, DetailsCard } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { AFTER_INSTALL_LABELS, TaskStateBadge, taskTarget } from './netboot-labels.js';
import { TaskTimeline } from './TaskTimeline.js';
import { useTemplateOptions } from './use-netboot-options.js';

/**
 * Refetches the task when a live event concerns it: its own netboot.task.*,
 * answer and callback events (detail.task_id), and the DHCP, boot and
 * transfer events of its MAC, which make up the timeline.
 */
function useFollowTask(task: InstallTask | undefined) {
  const queryClient = useQueryClient();
  const newest = useLiveEvents((state) => state.events[0]);
  const id = task?.id;
  const mac = task?.mac.toLowerCase();
  const active = task !== undefined && !FINAL_TASK_STATES.includes(task.state);
  useEffect(() => {
    if (!newest || id === undefined) return;
    const concerns = newest.detail?.task_id === id || (active && mac !== undefined && newest.mac?.toLowerCase() === mac);
    if (concerns) void queryClient.invalidateQueries({ queryKey: keys.netbootTask(id) });
  }, [newest, id, mac, active, queryClient]);
}

function AnswerUrl({ url }: { url: string }) {
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Text size="sm" className="mono" style={{ wordBreak: 'break-all' }}>
        {url}
      </Text>
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} size="compact-xs" style={{ flexShrink: 0 }} aria-label="Copy the answer URL" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Where the task's installer comes from: a linked OS image (offline) or the catalog's download cache, and what still needs the network. */
function BootSource({ source }: { source: NonNullable<InstallTask['boot_source']> }) {
  return (
    <Stack gap={2}>
      <Text size="sm">
        {source.kind === 'image' && source.image_id !== null ? (
          <Anchor component={Link} to={`/images/${source.image_id}`}>
            OS image {source.image_name ?? `#${source.image_id}`}
          </Anchor>
        ) : (
          'The catalog (download cache)'
        )}
        {': '}
        {source.message}
      </Text>
      {source.network && <Text size="xs" c="dimmed">Still needs the network: {source.network}</Text>}
      {source.fallback && <Text size="xs" c="orange">Not from the linked image: {source.fallback}</Text>}
    </Stack>
  );
}

function Details({ task }: { task: InstallTask }) {
  const templates = useTemplateOptions();
  const rows: [string, ReactNode][] = [
    ['Machine', task.host_id !== null ? <Anchor component={Link} to={`/hosts/${task.host_id}`}>host #{task.host_id} ({task.mac})</Anchor> : <span className="mono">{task.mac}</span>],
    ['Installs', taskTarget(task)],
    [
      'Answer template',
      task.template_id !== null ? (
        <Anchor component={Link} to={`/netboot/templates/${task.template_id}`}>
          {templates.nameOf(task.template_id)}
          {task.template_version !== null ? ` (version ${task.template_version})` : ''}
        </Anchor>
      ) : (
        <Dim>none</Dim>
      ),
    ],
    ['Variables', Object.keys(task.variables).length > 0 ? <Text size="sm" className="mono pre-wrap">{Object.entries(task.variables).map(([name, value]) => `${name} = ${value}`).join('\n')}</Text> : <Dim />],
    ['After the install', AFTER_INSTALL_LABELS[task.after_install]],
    ['Message', task.message || <Dim />],
    ['Created', formatDateTime(task.created_at)],
    ['Started / finished', `${formatDateTime(task.started_at)} / ${formatDateTime(task.finished_at)}`],
    ['Expires', FINAL_TASK_STATES.includes(task.state) ? <Dim>ended</Dim> : <span title={formatDateTime(task.expires_at)}>{formatRelative(task.expires_at)}</span>],
  ];
  if (task.boot_source) rows.splice(2, 0, ['Boot files', <BootSource source={task.boot_source} />]);
  if (task.answer_url !== undefined) rows.push(['Answer URL', task.answer_url ? <AnswerUrl url={task.answer_url} /> : <Dim>none (no answer file)</Dim>]);
  return (
    <DetailsCard id="task-details-title" title="Details" caption="Task details" rows={rows} />
  );
}

/** `/netboot/tasks/:id`: an install task with its live timeline; Cancel, Restart, Delete. */
export function TaskDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1;
  const query = useApiQuery(keys.netbootTask(id), valid ? (api) => api.netboot.tasks.get(id) : null);
  useFollowTask(query.data);
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const navigate = useNavigate();
  const update = useApiAction((api, body: TaskUpdate) => api.netboot.tasks.update(id, body), {
    invalidate: [keys.netbootTasks],
    errorTitle: 'The task was not changed',
    success: (task) => (task.state === 'cancelled' ? `Task #${task.id} cancelled.` : `Task #${task.id} restarted: it waits for the machine to boot.`),
  });
  const remove = useApiAction((api) => api.netboot.tasks.remove(id), {
    invalidate: [keys.netbootTasks],
    errorTitle: 'The task was not deleted',
    success: `Task #${id} deleted.`,
    onSuccess: () => void navigate('/netboot/tasks'),
  });

  if (!valid) return <NotFoundPage />;
  if (query.isPending) return <Loading label="Loading the task…" />;
  if (query.isError) return <DetailLoadError what="install task" id={id} listPath="/netboot/tasks" listName="install tasks" error={query.error} onRetry={() => void query.refetch()} />;
  const task = query.data;
  const final = FINAL_TASK_STATES.includes(task.state);

  return (
    <Stack gap="md">
      <PageHeader
        title={`Install task #${task.id}`}
        description={
          <Group gap="xs">
            <Anchor component={Link} to="/netboot/tasks" inherit>
              Install tasks
            </Anchor>
            <span>› {taskTarget(task)} on {task.mac}</span>
            <TaskStateBadge state={task.state} />
          </Group>
        }
        actions={
          canEdit && (
            <>
              {!final && (
                <Button
                  variant="light"
                  color="orange"
                  loading={update.isPending}
                  onClick={async () => {
                    if (await confirm({ title: `Cancel task #${task.id}?`, message: 'The machine boots as before (its profile or the default) at its next boot; an installer already running is not stopped.', confirmLabel: 'Cancel task' })) {
                      update.mutate({ state: 'cancelled' });
                    }
                  }}
                >
                  Cancel task
                </Button>
              )}
              {final && task.state !== 'done' && (
                <Button variant="default" loading={update.isPending} onClick={() => update.mutate({ state: 'pending' })}>
                  Restart
                </Button>
              )}
              <Button
                variant="light"
                color="red"
                onClick={async () => {
                  if (await confirm({ title: `Delete task #${task.id}?`, message: final ? 'The task and its timeline are deleted.' : 'The task is still active: deleting it also cancels it.', confirmLabel: 'Delete task' })) {
                    remove.mutate(undefined);
                  }
                }}
              >
                Delete
              </Button>
            </>
          )
        }
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Details task={task} />
        <TaskTimeline task={task} />
      </SimpleGrid>
    </Stack>
  );
}
