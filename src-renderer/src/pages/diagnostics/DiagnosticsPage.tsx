import { PING_LIMITS, TRACEROUTE_LIMITS, type PingRequest, type TracerouteRequest } from '@contracts/diagnostics';
import { Alert, Button, Code, Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { BarChart } from '../../components/BarChart.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LoadError } from '../../components/QueryState.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { pingView, traceView, type RunView } from './diagnostics-rows.js';

type Tool = 'ping' | 'traceroute';
type Family = '' | '4' | '6';

/**
 * `/diagnostics`: ping and traceroute from this server. The page calls the
 * plain routes and shows the rows when the run is done (the /stream routes
 * take a POST body the transports' streams do not carry; docs/diagnostics.md).
 */
export function DiagnosticsPage() {
  const interfaces = useApiQuery(keys.settingsSection('interfaces'), (api) => api.settings.interfaces.get());
  const [tool, setTool] = useState<Tool>('ping');
  const [target, setTarget] = useState('');
  const [count, setCount] = useState<number>(PING_LIMITS.count.default);
  const [timeout, setTimeoutSeconds] = useState<number>(PING_LIMITS.timeout_seconds.default);
  const [size, setSize] = useState<number>(PING_LIMITS.size.default);
  const [maxHops, setMaxHops] = useState<number>(TRACEROUTE_LIMITS.max_hops.default);
  const [family, setFamily] = useState<Family>('');
  const [view, setView] = useState<RunView | null>(null);
  const [lines, setLines] = useState<string[]>([]);

  const familyField = family === '' ? {} : { family: Number(family) as 4 | 6 };
  const ping = useApiAction((api, body: PingRequest) => api.diagnostics.ping(body), {
    onSuccess: (result) => {
      setView(pingView(result));
      setLines(result.lines);
    },
  });
  const trace = useApiAction((api, body: TracerouteRequest) => api.diagnostics.traceroute(body), {
    onSuccess: (result) => {
      setView(traceView(result));
      setLines(result.lines);
    },
  });
  const running = ping.isPending || trace.isPending;

  function run() {
    setView(null);
    setLines([]);
    const trimmed = target.trim();
    if (tool === 'ping') ping.mutate({ target: trimmed, count, timeout_seconds: timeout, size, ...familyField });
    else trace.mutate({ target: trimmed, max_hops: maxHops, timeout_seconds: timeout, ...familyField });
  }

  const served = interfaces.data?.resolved_addresses ?? [];
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
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <Stack gap="sm" maw={720}>
          <SegmentedControl
            aria-label="Tool"
            value={tool}
            onChange={(value) => setTool(value === 'traceroute' ? 'traceroute' : 'ping')}
            data={[
              { value: 'ping', label: 'Ping' },
              { value: 'traceroute', label: 'Traceroute' },
            ]}
          />
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Target" description="IP address or host name" required value={target} onChange={(event) => setTarget(event.currentTarget.value)} maxLength={253} w={260} />
            {tool === 'ping' ? (
              <>
                <NumberInput label="Count" min={PING_LIMITS.count.minimum} max={PING_LIMITS.count.maximum} value={count} onChange={(value) => setCount(Number(value) || PING_LIMITS.count.default)} w={90} />
                <NumberInput label="Size (bytes)" min={PING_LIMITS.size.minimum} max={PING_LIMITS.size.maximum} value={size} onChange={(value) => setSize(Number(value) || PING_LIMITS.size.default)} w={120} />
              </>
            ) : (
              <NumberInput label="Max hops" min={TRACEROUTE_LIMITS.max_hops.minimum} max={TRACEROUTE_LIMITS.max_hops.maximum} value={maxHops} onChange={(value) => setMaxHops(Number(value) || TRACEROUTE_LIMITS.max_hops.default)} w={100} />
            )}
            <NumberInput label="Timeout (s)" min={PING_LIMITS.timeout_seconds.minimum} max={PING_LIMITS.timeout_seconds.maximum} value={timeout} onChange={(value) => setTimeoutSeconds(Number(value) || PING_LIMITS.timeout_seconds.default)} w={110} />
            <Select label="Family" value={family} onChange={(value) => setFamily(value === '4' || value === '6' ? value : '')} data={[{ value: '', label: 'Auto' }, { value: '4', label: 'IPv4' }, { value: '6', label: 'IPv6' }]} w={100} allowDeselect={false} />
            <Button type="submit" loading={running} disabled={target.trim() === ''}>
              Run {tool}
            </Button>
          </Group>
        </Stack>
      </form>
      {view ? <RunResult view={view} /> : null}
      {lines.length > 0 ? (
        <Code block aria-label="Raw output">
          {lines.join('\n')}
        </Code>
      ) : null}
    </Stack>
  );
}

function RunResult({ view }: { view: RunView }) {
  return (
    <Stack gap="sm">
      <Alert color="blue" role="status" aria-label="Summary">
        {view.summary}
      </Alert>
      {view.bars.length > 0 ? <BarChart bars={view.bars} title="Latency" unit="ms" /> : null}
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
    </Stack>
  );
}
