import { PING_LIMITS, TRACEROUTE_LIMITS, type PingReply, type PingResult, type TraceHop, type TracerouteResult } from '@contracts/diagnostics';
import { Alert, Button, Code, Group, Loader, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError, describeError } from '../../api/api-error.js';
import { BarChart } from '../../components/BarChart.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LoadError } from '../../components/QueryState.js';
import { useApi, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { checkForm, INITIAL_FORM, serverProblems, type DiagnosticsForm, type FormProblems } from './diagnostics-form.js';
import { pingView, traceView, type RunView } from './diagnostics-rows.js';

type RunStatus = 'running' | 'done' | 'stopped' | 'failed';

/** One run as the page holds it: the rows so far, then the result or the error. */
type LiveRun = { id: number; status: RunStatus; error: ApiError | null } & (
  | { tool: 'ping'; rows: PingReply[]; result: PingResult | null }
  | { tool: 'traceroute'; rows: TraceHop[]; result: TracerouteResult | null }
);

/**
 * `/diagnostics`: ping and traceroute from this server, live. The page opens
 * the /stream routes (over IPC or fetch, the transport decides), fills the
 * table and the latency chart row by row, and shows the statistics when the
 * run is done. Stop, or leaving the page, closes the stream; the server then
 * kills the tool (docs/diagnostics.md).
 */
export function DiagnosticsPage() {
  const api = useApi();
  const interfaces = useApiQuery(keys.settingsSection('interfaces'), (a) => a.settings.interfaces.get());
  const [form, setForm] = useState<DiagnosticsForm>(INITIAL_FORM);
  const [problems, setProblems] = useState<FormProblems>({});
  const [run, setRun] = useState<LiveRun | null>(null);
  const stopRef = useRef<(() => void) | null>(null);
  const nextId = useRef(0);

  // Leaving the page ends the run on the server too.
  useEffect(() => () => stopRef.current?.(), []);

  const set = <K extends keyof DiagnosticsForm>(field: K, value: DiagnosticsForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    // Editing a field clears its problem; the others stay until the next run.
    setProblems((current) => {
      const rest: Record<string, string | undefined> = { ...current };
      delete rest[field];
      return rest;
    });
  };

  /** Applies a change to the run only while it is still the current one (a stopped run's late messages are dropped). */
  const update = (id: number, change: (current: LiveRun) => LiveRun) => setRun((current) => (current && current.id === id ? change(current) : current));

  function start() {
    const checked = checkForm(form);
    if ('problems' in checked) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    stopRef.current?.();
    const id = (nextId.current += 1);
    const ended = () => {
      if (nextId.current === id) stopRef.current = null;
    };
    const onError = (error: ApiError) => {
      ended();
      setProblems(serverProblems(error.details));
      update(id, (current) => ({ ...current, status: 'failed', error }));
    };
    const { request } = checked;
    if (request.tool === 'ping') {
      setRun({ id, tool: 'ping', status: 'running', rows: [], result: null, error: null });
      stopRef.current = api.diagnostics.pingLive(request.body, {
        onRow: (row) => update(id, (current) => (current.tool === 'ping' ? { ...current, rows: [...current.rows, row] } : current)),
        onDone: (result) => {
          ended();
          update(id, (current) => (current.tool === 'ping' ? { ...current, status: 'done', result } : current));
        },
        onError,
      });
    } else {
      setRun({ id, tool: 'traceroute', status: 'running', rows: [], result: null, error: null });
      stopRef.current = api.diagnostics.traceLive(request.body, {
        onRow: (row) => update(id, (current) => (current.tool === 'traceroute' ? { ...current, rows: [...current.rows, row] } : current)),
        onDone: (result) => {
          ended();
          update(id, (current) => (current.tool === 'traceroute' ? { ...current, status: 'done', result } : current));
        },
        onError,
      });
    }
  }

  function stop() {
    stopRef.current?.();
    stopRef.current = null;
    setRun((current) => (current && current.status === 'running' ? { ...current, status: 'stopped' } : current));
  }

  const running = run?.status === 'running';
  const served = interfaces.data?.resolved_addresses ?? [];
  const number = (value: string | number) => (typeof value === 'number' ? value : value === '' ? '' : Number(value));
  return (
    <Stack gap="md">
      <PageHeader title="Diagnostics" description="Ping and traceroute from this server, with the system's own tools." />
      {interfaces.isError ? <LoadError what="the network interfaces" error={interfaces.error} onRetry={() => void interfaces.refetch()} /> : null}
      {served.length > 0 ? (
        <Text size="sm" c="dimmed">
          Probes leave from this server: {served.map((entry) => `${entry.address} (${entry.interface})`).join(', ')}
        </Text>
      ) : null}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!running) start();
        }}
      >
        <Stack gap="sm" maw={760}>
          <SegmentedControl
            aria-label="Tool"
            value={form.tool}
            disabled={running}
            onChange={(value) => set('tool', value === 'traceroute' ? 'traceroute' : 'ping')}
            data={[
              { value: 'ping', label: 'Ping' },
              { value: 'traceroute', label: 'Traceroute' },
            ]}
          />
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Target"
              description="IP address or host name"
              required
              value={form.target}
              error={problems.target}
              onChange={(event) => set('target', event.currentTarget.value)}
              maxLength={253}
              w={260}
            />
            {form.tool === 'ping' ? (
              <>
                <NumberInput label="Count" min={PING_LIMITS.count.minimum} max={PING_LIMITS.count.maximum} value={form.count} error={problems.count} onChange={(value) => set('count', number(value))} w={110} />
                <NumberInput label="Size (bytes)" min={PING_LIMITS.size.minimum} max={PING_LIMITS.size.maximum} value={form.size} error={problems.size} onChange={(value) => set('size', number(value))} w={130} />
              </>
            ) : (
              <NumberInput label="Max hops" min={TRACEROUTE_LIMITS.max_hops.minimum} max={TRACEROUTE_LIMITS.max_hops.maximum} value={form.maxHops} error={problems.maxHops} onChange={(value) => set('maxHops', number(value))} w={110} />
            )}
            <NumberInput label="Timeout (s)" min={PING_LIMITS.timeout_seconds.minimum} max={PING_LIMITS.timeout_seconds.maximum} value={form.timeout} error={problems.timeout} onChange={(value) => set('timeout', number(value))} w={120} />
            <Select label="Family" value={form.family} onChange={(value) => set('family', value === '4' || value === '6' ? value : '')} data={[{ value: '', label: 'Auto' }, { value: '4', label: 'IPv4' }, { value: '6', label: 'IPv6' }]} w={100} allowDeselect={false} />
          </Group>
          <Group>
            <Button type="submit" disabled={running || form.target.trim() === ''}>
              Run {form.tool}
            </Button>
            <Button variant="default" color="red" onClick={stop} disabled={!running}>
              Stop
            </Button>
          </Group>
        </Stack>
      </form>
      {run ? <RunPanel run={run} /> : null}
    </Stack>
  );
}

function RunPanel({ run }: { run: LiveRun }) {
  const view: RunView = run.tool === 'ping' ? pingView(run.rows, run.result) : traceView(run.rows, run.result);
  const noun = run.tool === 'ping' ? 'reply line' : 'hop';
  const count = view.rows.length;
  return (
    <Stack gap="sm">
      {run.status === 'running' ? (
        <Group gap="xs" role="status" aria-label="Progress">
          <Loader size="xs" />
          <Text size="sm">
            Running {run.tool}… {count} {noun}
            {count === 1 ? '' : 's'} so far
          </Text>
        </Group>
      ) : null}
      {run.status === 'stopped' ? (
        <Alert color="gray" role="status" aria-label="Progress">
          Stopped after {count} {noun}
          {count === 1 ? '' : 's'}; the server ended the run.
        </Alert>
      ) : null}
      {run.error ? (
        <Alert color="red" title={`${run.tool === 'ping' ? 'Ping' : 'Traceroute'} failed`} role="alert">
          {describeError(run.error)}
        </Alert>
      ) : null}
      {view.summary ? (
        <Alert color="blue" role="status" aria-label="Summary">
          {view.summary}
        </Alert>
      ) : null}
      {run.result?.error ? (
        <Text size="sm" c="red">
          {run.tool} said: {run.result.error}
        </Text>
      ) : null}
      {view.bars.length > 0 ? (
        <div>
          <Text size="xs" c="dimmed">
            Latency per {run.tool === 'ping' ? 'reply' : 'hop (average)'}, {view.unit}
          </Text>
          <BarChart bars={view.bars} title="Latency" unit={view.unit} />
        </div>
      ) : null}
      {count > 0 || run.status === 'running' ? (
        <Table striped aria-label="Results">
          <Table.Thead>
            <Table.Tr>
              {view.columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rows.map((row) => (
              <Table.Tr key={row.key}>
                {row.cells.map((cell, index) => (
                  <Table.Td key={view.columns[index]} className={index === 1 ? 'mono' : undefined}>
                    {cell}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {run.result && run.result.lines.length > 0 ? (
        <Code block aria-label="Raw output">
          {run.result.lines.join('\n')}
        </Code>
      ) : null}
    </Stack>
  );
}
