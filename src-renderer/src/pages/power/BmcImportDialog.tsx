import { CSV_COLUMNS, CSV_REQUIRED_COLUMNS } from '@contracts/power';
import { Alert, Checkbox, FileInput, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { isApiError } from '../../api/api-error.js';
import { DialogActions } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

export interface LineError {
  line: number;
  column: string | null;
  message: string;
}

/** The 400's details (`csv.line<N>.<column>`) as line errors, like the partial import's `errors`. */
export function lineErrorsFrom(details: readonly { field: string; message: string }[]): LineError[] {
  return details.map((detail) => {
    const match = /^csv\.line(\d+)(?:\.(.+))?$/.exec(detail.field);
    return match ? { line: Number(match[1]), column: match[2] ?? null, message: detail.message } : { line: 0, column: detail.field, message: detail.message };
  });
}

const REQUIRED: readonly string[] = CSV_REQUIRED_COLUMNS;
const OPTIONAL = CSV_COLUMNS.filter((column) => !REQUIRED.includes(column));
const EXAMPLE = 'name,address,username,password,protocol,host_mac\nrack1-node1,10.0.0.51,admin,secret,ipmi,52:54:00:12:34:56';

/** POST /bmc/configs/import: paste or choose a CSV file; every bad line is listed with its number. */
export function BmcImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [csv, setCsv] = useState('');
  const [partial, setPartial] = useState(false);
  const [lineErrors, setLineErrors] = useState<LineError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const importCsv = useApiAction((api, input: { csv: string; partial: boolean }) => api.power.bmc.importCsv(input.csv, input.partial), {
    invalidate: [keys.bmc],
    notifyErrors: false,
    success: (result) => `${result.imported.length} of ${result.rows} BMC config(s) imported.`,
    onSuccess: (result) => setLineErrors(result.errors),
  });
  const close = () => {
    setCsv('');
    setLineErrors([]);
    setFailure(null);
    importCsv.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Import BMC configs from CSV" size="xl">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A header row names the columns: {REQUIRED.join(', ')} (required); {OPTIONAL.join(', ')} (optional). At most 5000 rows.
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a file…"
          accept=".csv,text/csv"
          clearable
          onChange={async (file) => {
            setCsv(file ? await file.text() : '');
            setLineErrors([]);
            setFailure(null);
          }}
        />
        <Textarea label="Or paste the CSV" placeholder={EXAMPLE} autosize minRows={5} maxRows={14} value={csv} onChange={(event) => setCsv(event.currentTarget.value)} className="mono" />
        <Checkbox label="Import the good lines even when others have problems" checked={partial} onChange={(event) => setPartial(event.currentTarget.checked)} />
        {failure && (
          <Alert color="red" role="alert" title="Nothing was imported">
            {failure}
          </Alert>
        )}
        {importCsv.data && (
          <Alert color={importCsv.data.errors.length > 0 ? 'orange' : 'teal'} title={`${importCsv.data.imported.length} of ${importCsv.data.rows} row(s) imported`}>
            {importCsv.data.imported.map((config) => config.name).join(', ') || 'none'}
          </Alert>
        )}
        {lineErrors.length > 0 && (
          <div role="region" aria-label="Problems by line">
            <Text size="sm" fw={600}>
              Problems ({lineErrors.length})
            </Text>
            <List size="sm" spacing={2}>
              {lineErrors.map((error, index) => (
                <List.Item key={index}>
                  {error.line > 0 ? `Line ${error.line}` : 'File'}
                  {error.column ? `, ${error.column}` : ''}: {error.message}
                </List.Item>
              ))}
            </List>
          </div>
        )}
        <DialogActions
          onCancel={close}
          cancelLabel="Close"
          confirmLabel="Import"
          pending={importCsv.isPending}
          confirmDisabled={csv.trim() === ''}
          onConfirm={() => {
            setFailure(null);
            setLineErrors([]);
            importCsv.mutate(
              { csv, partial },
              {
                onError: (error) => {
                  setFailure(error.message);
                  if (isApiError(error)) setLineErrors(lineErrorsFrom(error.details));
                },
              },
            );
          }}
        />
      </Stack>
    </Modal>
  );
}
