import { Alert, Anchor, Button, Card, Code, CopyButton, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { BaselineRun, BaselineTokenCreated } from '@contracts/baselines';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** One run: its scripts in order with status, exit code, time, and the end of their output. */
function RunResults({ run }: { run: BaselineRun }) {
  const [open, setOpen] = useState<number | null>(null);
  if (run.results.length === 0) return <Dim>No script has reported yet.</Dim>;
  return (
    <Table striped withRowBorders={false} aria-label={`Scripts of baseline run ${run.id}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Script</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Exit code</Table.Th>
          <Table.Th>Time</Table.Th>
          <Table.Th>Output</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {run.results.map((result) => (
          <Table.Tr key={result.position}>
            <Table.Td>{result.position}</Table.Td>
            <Table.Td>{result.name}</Table.Td>
            <Table.Td>
              <StatusBadge value={result.status} />
            </Table.Td>
            <Table.Td className="mono">{result.exit_code ?? '—'}</Table.Td>
            <Table.Td>{seconds(result.duration_ms)}</Table.Td>
            <Table.Td>
              {result.output_tail === '' ? (
                <Dim>none</Dim>
              ) : open === result.position ? (
                <Stack gap={4}>
                  <Code block className="pre-wrap" aria-label={`Output tail of ${result.name}`} style={{ maxHeight: 320, overflow: 'auto' }}>
                    {result.output_tail}
                  </Code>
                  <Anchor component="button" size="sm" onClick={() => setOpen(null)}>
                    Hide
                  </Anchor>
                </Stack>
              ) : (
                <Anchor component="button" size="sm" onClick={() => setOpen(result.position)}>
                  Show the last {result.output_tail.length} characters
                </Anchor>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The runner commands of a new token, shown once. */
function RunnerDialog({ created, onClose }: { created: BaselineTokenCreated; onClose: () => void }) {
  const sh = `wget -qO- '${created.runner_url_sh}' | sh`;
  const ps1 = `powershell -NoProfile -ExecutionPolicy Bypass -Command "iex (Invoke-RestMethod -UseBasicParsing -Uri '${created.runner_url_ps1}')"`;
  return (
    <Modal opened onClose={onClose} title="Runner for this host" size="lg" closeOnClickOutside={false}>
      <Stack gap="sm">
        <Alert color="orange" title="Copy it now">
          The URLs hold a token shown only this once. It reads this host's baseline and reports its results, nothing else, until {formatDateTime(created.token_info.expires_at)}.
        </Alert>
        {[
          ['Linux (as root)', sh],
          ['Windows (as Administrator)', ps1],
        ].map(([label, command]) => (
          <Stack key={label} gap={4}>
            <Text size="sm" fw={500}>
              {label}
            </Text>
            <Code block className="pre-wrap" aria-label={`${label} runner command`}>
              {command}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={command ?? ''}>
                {({ copied, copy }) => (
                  <Button size="xs" variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        ))}
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * "Post-install": the baseline runs this machine reported (newest first), each
 * script's status, exit code and output tail. Install tasks put the runner in
 * the answer file; operators can also make a runner token by hand.
 */
export function HostBaselineRunsCard({ hostId }: { hostId: number }) {
  const query = useApiPage([...keys.baselineRuns, 'host', hostId], { host_id: hostId, size: 5 }, (api, params) => api.baselineRuns.runs.list(params));
  const canRun = useCan('operator');
  const [created, setCreated] = useState<BaselineTokenCreated | null>(null);
  const mint = useApiAction((api, id: number) => api.baselineRuns.tokens.create({ host_id: id }), { invalidate: [keys.baselineTokens], errorTitle: 'No runner token', onSuccess: setCreated });
  return (
    <Card withBorder component="section" aria-labelledby="host-post-install-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="host-post-install-title">
          Post-install
        </Title>
        {canRun && (
          <Button size="xs" variant="default" loading={mint.isPending} onClick={() => mint.mutate(hostId)}>
            Runner command
          </Button>
        )}
      </Group>
      <QueryState query={query} what="the baseline runs">
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState>No baseline run reported. An install task runs the host's baseline at its end; the runner command runs it by hand.</EmptyState>
          ) : (
            <Stack gap="md">
              {list.data.map((run) => (
                <Stack key={run.id} gap={4}>
                  <Group gap="xs">
                    <StatusBadge value={run.status} />
                    <Text size="sm">
                      Run #{run.id} of {run.baseline_name === '' ? <Dim>no baseline</Dim> : `“${run.baseline_name}”`} · started {formatDateTime(run.started_at)}
                      {run.finished_at ? ` · finished ${formatDateTime(run.finished_at)}` : ''}
                      {run.task_id !== null && (
                        <>
                          {' · '}
                          <Anchor component={Link} to={`/netboot/tasks/${run.task_id}`} inherit>
                            task #{run.task_id}
                          </Anchor>
                        </>
                      )}
                    </Text>
                  </Group>
                  <RunResults run={run} />
                </Stack>
              ))}
              {list.meta.total > list.data.length && <Dim>{list.meta.total - list.data.length} older runs not shown.</Dim>}
            </Stack>
          )
        }
      </QueryState>
      {created && <RunnerDialog created={created} onClose={() => setCreated(null)} />}
    </Card>
  );
}
