import { LOG_LEVELS, LogRecordSchema, type CleanupResult, type LogCleanupRequest, type LogLevel, type LogRecordData as LogRecord } from '@contracts/logs';
import { Alert, Badge, Button, Card, Group, NumberInput, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Value } from 'typebox/value';
import { describeError } from '../../api/api-error.js';
import { useAppState, useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { levelColor } from '../../components/StatusBadge.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const LINES_KEPT = 500;

const LEVEL_LABELS: Record<LogLevel, string> = { error: 'Errors', warn: 'Warnings and up', info: 'Info and up', debug: 'Debug and up' };

function DiskUsage() {
  const query = useApiQuery([...keys.logs, 'disk'], (api) => api.logs.diskUsage());
  return (
    <Card withBorder component="section" aria-labelledby="disk-title">
      <Title order={2} size="h4" id="disk-title" mb="sm">
        Disk usage
      </Title>
      <QueryState query={query} what="disk usage">
        {(usage) => {
          const used = usage.fs_total_bytes > 0 ? ((usage.fs_total_bytes - usage.fs_free_bytes) / usage.fs_total_bytes) * 100 : 0;
          return (
            <Stack gap="xs">
              <Text size="sm">
                Log files: {formatBytes(usage.bytes)} in {usage.files} file(s)
              </Text>
              <Text size="sm">
                Data file system: {formatBytes(usage.fs_free_bytes)} free of {formatBytes(usage.fs_total_bytes)}
              </Text>
              <Progress value={used} color={used > 90 ? 'red' : used > 75 ? 'orange' : 'blue'} aria-label={`Data file system ${used.toFixed(0)} percent used`} />
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}

function Cleanup() {
  const confirm = useConfirm();
  const [olderThan, setOlderThan] = useState<number | string>(30);
  const [maxMb, setMaxMb] = useState<number | string>('');
  const cleanup = useApiAction((api, body: LogCleanupRequest): Promise<CleanupResult> => api.logs.cleanup(body), {
    invalidate: [keys.logs],
    success: (result) => `${result.deleted.length} file(s) deleted, ${formatBytes(result.bytes_freed)} freed.`,
  });
  const body = { ...(olderThan !== '' ? { older_than_days: Number(olderThan) } : {}), ...(maxMb !== '' ? { max_total_mb: Number(maxMb) } : {}) };
  return (
    <Card withBorder component="section" aria-labelledby="cleanup-title">
      <Title order={2} size="h4" id="cleanup-title">
        Clean up
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Deletes archived log files (never the current one): older than the given days, then the oldest until the total fits.
      </Text>
      <Group align="flex-end" gap="sm">
        <NumberInput label="Older than (days)" min={0} max={36500} allowDecimal={false} value={olderThan} onChange={setOlderThan} w={170} />
        <NumberInput label="Keep at most (MiB)" placeholder="no limit" min={0} value={maxMb} onChange={setMaxMb} w={170} />
        <Button
          color="red"
          variant="light"
          loading={cleanup.isPending}
          disabled={Object.keys(body).length === 0}
          onClick={async () => {
            if (await confirm({ title: 'Delete archived log files?', message: 'The archived files that match are deleted for good.', confirmLabel: 'Delete files' })) cleanup.mutate(body);
          }}
        >
          Clean up
        </Button>
      </Group>
      {cleanup.data && cleanup.data.failed.length > 0 && (
        <Alert color="orange" mt="sm" title="Some files could not be deleted">
          {cleanup.data.failed.map((failure) => `${failure.name}: ${failure.error}`).join('; ')}
        </Alert>
      )}
    </Card>
  );
}

function Files() {
  const query = useApiQuery([...keys.logs, 'files'], (api) => api.logs.files());
  return (
    <Card withBorder component="section" aria-labelledby="files-title">
      <Title order={2} size="h4" id="files-title" mb="sm">
        Log files
      </Title>
      <QueryState query={query} what="the log files">
        {(files) =>
          files.length === 0 ? (
            <EmptyState>No log files yet. Bootwright writes them to the logs folder of its data directory; if this stays empty, check that the data directory is writable by the service user and look at the service's console output (journalctl -u bootwright).</EmptyState>
          ) : (
            <Table striped>
              <caption className="visually-hidden">Log files</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>File</Table.Th>
                  <Table.Th ta="right">Size</Table.Th>
                  <Table.Th>Last written</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {files.map((file) => (
                  <Table.Tr key={file.name}>
                    <Table.Th scope="row" className="mono" fw="normal">
                      {file.name}{' '}
                      {file.current && (
                        <Badge size="xs" variant="light">
                          current
                        </Badge>
                      )}
                    </Table.Th>
                    <Table.Td ta="right">{formatBytes(file.size)}</Table.Td>
                    <Table.Td>{formatDateTime(file.modified_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryState>
    </Card>
  );
}

/** A stream message's data when it is a log record as the contract describes it, else null (skipped). */
function asLogRecord(data: unknown): LogRecord | null {
  return Value.Check(LogRecordSchema, data) ? data : null;
}

/** The live log stream (GET /logs/stream or its IPC twin), with level and scope filters, pausable, last 500 lines. */
function LiveLog() {
  const { client } = useAppState();
  const [level, setLevel] = useState<LogLevel>('info');
  const [service, setService] = useState('');
  const [running, setRunning] = useState(true);
  const [lines, setLines] = useState<(LogRecord & { key: number })[]>([]);
  const [error, setError] = useState<string | null>(null);
  const counter = useRef(0);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!running) return;
    setError(null);
    const params: Record<string, string> = { level };
    if (service.trim() !== '') params.service = service.trim();
    return client.subscribe(
      { stream: 'logs', params },
      {
        onMessage: (message) => {
          const record = asLogRecord(message.data);
          if (!record) return;
          counter.current += 1;
          const key = counter.current;
          setLines((current) => [...current, { ...record, key }].slice(-LINES_KEPT));
        },
        onError: (err) => setError(describeError(err)),
      },
    );
  }, [client, level, service, running]);

  useEffect(() => {
    const element = box.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lines]);

  return (
    <Card withBorder component="section" aria-labelledby="live-log-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="live-log-title">
          Live log
        </Title>
        <Group gap="xs">
          <Select
            aria-label="Minimum level"
            data={LOG_LEVELS.map((value) => ({ value, label: LEVEL_LABELS[value] }))}
            value={level}
            onChange={(value) => setLevel((value as LogLevel | null) ?? 'info')}
            allowDeselect={false}
            w={170}
          />
          <TextInput aria-label="Scopes (comma-separated)" placeholder="Scopes, e.g. dhcp,tftp" value={service} onChange={(event) => setService(event.currentTarget.value)} w={190} />
          <Button variant="default" onClick={() => setRunning((value) => !value)}>
            {running ? 'Pause' : 'Resume'}
          </Button>
          <Button variant="default" onClick={() => setLines([])} disabled={lines.length === 0}>
            Clear view
          </Button>
        </Group>
      </Group>
      {error && (
        <Text size="sm" c="orange" role="status">
          Stream interrupted: {error}
        </Text>
      )}
      <div className="log-view" ref={box} role="log" aria-label="Live log lines" tabIndex={0}>
        {lines.length === 0 ? (
          <Text size="sm" c="dimmed">
            {running ? 'Waiting for log lines at this level (only the server log level and above are written)…' : 'Paused.'}
          </Text>
        ) : (
          lines.map((line) => (
            <div key={line.key} className="log-line">
              <span className="log-time">{formatDateTime(line.time)}</span>{' '}
              <Text span c={levelColor(line.level === 'debug' ? 'info' : line.level)} fw={600} inherit>
                {line.level.toUpperCase()}
              </Text>{' '}
              <span className="log-scope">[{line.scope}]</span> {line.message}
              {line.context && Object.keys(line.context).length > 0 ? <span className="log-context"> {JSON.stringify(line.context)}</span> : null}
            </div>
          ))
        )}
      </div>
    </Card>
  );
}

/** `/logs`: log files, disk usage, cleanup (operator) and the live log stream. */
export function LogsPage() {
  const canClean = useCan('operator');
  return (
    <Stack gap="md">
      <PageHeader title="Logs" description="The server's log files and its live log." />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <DiskUsage />
        {canClean ? <Cleanup /> : <Files />}
      </SimpleGrid>
      {canClean && <Files />}
      <LiveLog />
    </Stack>
  );
}
