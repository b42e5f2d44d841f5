import { Button, Card, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { AnswerPreview, AnswerTemplate, PreviewBody } from '@contracts/netboot';
import { useMemo, useState } from 'react';
import { useCan } from '../../app-state.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { useApiAction } from '../../query/api-hooks.js';
import { useHostOptions } from '../power/use-host-options.js';
import { issueMarkers, ValidationIssues } from './ValidationIssues.js';
import { rowsToVariables, VariableRows, type VariableRow } from './variable-rows.js';

/** Render the stored template for a host, a task or a bare MAC, with extra variables, and validate the result. */
export function TemplatePreview({ template }: { template: AnswerTemplate }) {
  const canPreview = useCan('operator');
  const hosts = useHostOptions();
  const [by, setBy] = useState<'host' | 'task' | 'mac'>('host');
  const [hostId, setHostId] = useState<string | null>(null);
  const [taskId, setTaskId] = useState('');
  const [mac, setMac] = useState('');
  const [rows, setRows] = useState<VariableRow[]>([]);
  const [problems, setProblems] = useState<Record<number, string>>({});
  const [targetError, setTargetError] = useState<string | null>(null);
  const [result, setResult] = useState<AnswerPreview | null>(null);
  const preview = useApiAction((api, body: PreviewBody) => api.netboot.templates.preview(template.id, body), { errorTitle: 'The preview failed', onSuccess: setResult });
  const markers = useMemo(() => issueMarkers(result?.validation ?? null), [result]);

  if (!canPreview) {
    return <Text c="dimmed">Previews render with a host's data and are for operators.</Text>;
  }

  const run = () => {
    const { variables, problems: found } = rowsToVariables(rows);
    setProblems(found);
    setTargetError(null);
    if (Object.keys(found).length > 0) return;
    const extra = Object.keys(variables).length > 0 ? { variables } : {};
    if (by === 'host') {
      if (hostId === null) return setTargetError('Choose a host');
      preview.mutate({ host_id: Number(hostId), ...extra });
    } else if (by === 'task') {
      const id = Number(taskId);
      if (!Number.isInteger(id) || id < 1) return setTargetError('A task number');
      preview.mutate({ task_id: id, ...extra });
    } else {
      if (mac.trim() === '') return setTargetError('A MAC address');
      preview.mutate({ mac: mac.trim(), ...extra });
    }
  };

  return (
    <Stack gap="md">
      <Card withBorder component="section" aria-labelledby="preview-for-title">
        <Title order={2} size="h4" id="preview-for-title" mb="sm">
          Preview for
        </Title>
        <Stack gap="sm">
          <SegmentedControl aria-label="Preview for" w="fit-content" value={by} onChange={(value) => setBy(value === 'task' ? 'task' : value === 'mac' ? 'mac' : 'host')} data={[{ value: 'host', label: 'A host' }, { value: 'task', label: 'A task' }, { value: 'mac', label: 'A MAC address' }]} />
          {by === 'host' && <Select label="Host" data={hosts.options} searchable value={hostId} onChange={setHostId} error={targetError} />}
          {by === 'task' && <TextInput label="Task number" value={taskId} onChange={(event) => setTaskId(event.currentTarget.value)} error={targetError} w={160} />}
          {by === 'mac' && <TextInput label="MAC address" value={mac} onChange={(event) => setMac(event.currentTarget.value)} error={targetError} w={260} />}
          <Text size="sm" fw={500}>
            Extra variables
          </Text>
          <VariableRows rows={rows} onChange={setRows} problems={problems} />
          <Group>
            <Button onClick={run} loading={preview.isPending}>
              Render preview
            </Button>
          </Group>
        </Stack>
      </Card>
      {result && (
        <Card withBorder component="section" aria-labelledby="preview-result-title">
          <Title order={2} size="h4" id="preview-result-title" mb="sm">
            Rendered answer file
          </Title>
          <Stack gap="sm">
            <CodeEditor label={`Rendered (${result.content_type}); secrets masked`} value={result.content} readOnly maxHeight="32rem" markers={markers} />
            <ValidationIssues result={result.validation} title="Validation of the rendered file" />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
