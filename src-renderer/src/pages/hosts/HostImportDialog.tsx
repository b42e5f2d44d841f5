import { HOST_IMPORT_COLUMNS, MAX_HOST_IMPORT_ROWS, type ImportMode, type ImportReport } from '@contracts/hosts';
import { Alert, FileInput, Group, Loader, Modal, SegmentedControl, Stack, Table, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useLiveEvents } from '../../app-state.js';
import { DialogActions } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const EXAMPLE = 'mac,hostname,ip,profile,group,tags,enabled\n52:54:00:12:34:56,node01,10.0.0.51,Ubuntu installer,rack-1,gpu;ib,true';

/** What the dialog last checked: the report holds for this text and mode only. */
interface Checked {
  csv: string;
  mode: ImportMode;
  report: ImportReport;
}

function summary(report: ImportReport): string {
  const verb = report.dry_run ? 'would create' : 'created';
  return `${report.rows} row(s): ${report.created} ${verb}, ${report.updated} ${report.dry_run ? 'would update' : 'updated'}`;
}

/**
 * POST /hosts/import from the hosts page: paste or choose a CSV file, check it
 * (a dry run: every problem listed by row, line and column), then import it —
 * all rows in one transaction or none.
 */
export function HostImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [csv, setCsv] = useState('');
  const [mode, setMode] = useState<ImportMode>('create');
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Long imports report their phases as hosts.import.progress events; show the newest one of this run.
  const [startedAfter, setStartedAfter] = useState(0);
  const newestEventId = useLiveEvents((state) => state.events[0]?.id ?? 0);
  const phase = useLiveEvents((state) => state.events.find((event) => event.kind === 'hosts.import.progress' && event.id > startedAfter)?.message ?? null);
  const check = useApiAction((api, input: { csv: string; mode: ImportMode }) => api.hosts.importHosts({ csv: input.csv }, { mode: input.mode, dryRun: true }), {
    notifyErrors: false,
    onSuccess: (report, input) => setChecked({ ...input, report }),
  });
  const run = useApiAction((api, input: { csv: string; mode: ImportMode }) => api.hosts.importHosts({ csv: input.csv }, { mode: input.mode }), {
    invalidate: [keys.hosts],
    notifyErrors: false,
    success: (report) => `Hosts imported: ${summary(report)}.`,
  });
  const current = checked !== null && checked.csv === csv && checked.mode === mode ? checked.report : null;
  const ready = current !== null && current.problem_count === 0 && current.rows > 0 && !run.isSuccess;
  const reset = () => {
    setChecked(null);
    setFailure(null);
    run.reset();
  };
  const close = () => {
    setCsv('');
    reset();
    check.reset();
    onClose();
  };
  const onError = (error: Error) => setFailure(error.message);
  return (
    <Modal opened={opened} onClose={close} title="Import hosts" size="xl">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A header row names the columns: mac (required); {HOST_IMPORT_COLUMNS.filter((c) => c !== 'mac').join(', ')}. Tags are separated by “;”, profile is a profile name. At most{' '}
          {MAX_HOST_IMPORT_ROWS.toLocaleString()} rows. Every row is checked first; the import writes all rows or none.
        </Text>
        <Group gap="sm" align="flex-end">
          <FileInput
            label="CSV file"
            placeholder="Choose a file…"
            accept=".csv,text/csv"
            clearable
            style={{ flex: 1 }}
            onChange={async (file) => {
              setCsv(file ? await file.text() : '');
              reset();
            }}
          />
          <SegmentedControl
            aria-label="Existing MACs"
            value={mode}
            onChange={(value) => setMode(value as ImportMode)}
            data={[
              { value: 'create', label: 'Refuse existing MACs' },
              { value: 'upsert', label: 'Update existing MACs' },
            ]}
          />
        </Group>
        <Textarea
          label="Or paste the CSV"
          placeholder={EXAMPLE}
          autosize
          minRows={5}
          maxRows={12}
          value={csv}
          onChange={(event) => {
            setCsv(event.currentTarget.value);
            reset();
          }}
          classNames={{ input: 'mono' }}
        />
        {failure && (
          <Alert color="red" role="alert" title="Nothing was imported">
            {failure}
          </Alert>
        )}
        {run.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{phase ? `${phase[0]!.toUpperCase()}${phase.slice(1)}…` : `Importing ${current?.rows ?? ''} row(s)…`}</Text>
          </Group>
        )}
        {run.data && (
          <Alert color="teal" title="Imported">
            {summary(run.data)}
          </Alert>
        )}
        {current && !run.data && (
          <Alert color={current.problem_count > 0 ? 'orange' : 'teal'} title={current.problem_count > 0 ? `${current.problem_count} problem(s): nothing can be imported yet` : 'Ready to import'}>
            {summary(current)}
          </Alert>
        )}
        {current && current.problems.length > 0 && (
          <Table.ScrollContainer minWidth={500} mah={280} type="native">
            <Table striped withTableBorder aria-label="Import problems">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.problems.map((problem, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>{problem.row > 0 ? problem.row : 'file'}</Table.Td>
                    <Table.Td>{problem.line ?? ''}</Table.Td>
                    <Table.Td className="mono">{problem.field ?? ''}</Table.Td>
                    <Table.Td>{problem.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <DialogActions
          onCancel={close}
          cancelLabel="Close"
          confirmLabel={ready ? `Import ${current.rows} host(s)` : 'Check'}
          pending={check.isPending || run.isPending}
          confirmDisabled={csv.trim() === '' || run.isSuccess}
          onConfirm={() => {
            setFailure(null);
            if (ready) {
              setStartedAfter(newestEventId);
              run.mutate({ csv, mode }, { onError });
            } else check.mutate({ csv, mode }, { onError });
          }}
        />
      </Stack>
    </Modal>
  );
}
