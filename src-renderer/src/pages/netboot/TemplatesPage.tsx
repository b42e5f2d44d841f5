import { Anchor, Badge, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { ANSWER_KINDS, AnswerTemplateWriteSchema, type AnswerTemplate, type AnswerTemplateWrite } from '@contracts/netboot';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Value } from 'typebox/value';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog, TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ANSWER_KIND_LABELS } from './netboot-labels.js';

const NAME = AnswerTemplateWriteSchema.properties.name;

const COLUMNS: Column<AnswerTemplate>[] = [
  {
    key: 'name',
    header: 'Name',
    sortKey: 'name',
    render: (template) => (
      <Anchor component={Link} to={`/netboot/templates/${template.id}`} size="sm" fw={500}>
        {template.name}
      </Anchor>
    ),
  },
  { key: 'kind', header: 'Kind', sortKey: 'kind', render: (template) => <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>{ANSWER_KIND_LABELS[template.kind]}</Badge> },
  { key: 'description', header: 'Description', render: (template) => (template.description ? <Text size="sm" lineClamp={2}>{template.description}</Text> : <Dim />) },
  { key: 'preset', header: 'From preset', render: (template) => template.preset ?? <Dim /> },
  { key: 'version', header: 'Version', numeric: true, render: (template) => template.version },
  { key: 'updated_at', header: 'Changed', sortKey: 'updated_at', render: (template) => <span title={formatDateTime(template.updated_at)}>{formatRelative(template.updated_at)}</span> },
];

/** Name a new template and start it from a preset (a working minimal unattended install) of its kind. */
function NewTemplateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const presets = useApiQuery(keys.netbootPresets, opened ? (api) => api.netboot.templates.presets() : null);
  const [preset, setPreset] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ name?: string; preset?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const chosen = presets.data?.find((candidate) => candidate.id === preset);
  const create = useApiAction((api, body: AnswerTemplateWrite) => api.netboot.templates.create(body), {
    invalidate: [keys.netbootTemplates],
    notifyErrors: false,
    success: (template) => `Template ${template.name} created.`,
    onSuccess: (template) => {
      onClose();
      void navigate(`/netboot/templates/${template.id}`);
    },
  });
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New answer template"
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        const next: typeof errors = {};
        if (!Value.Check(NAME, name.trim())) next.name = '1 to 64 characters';
        if (!preset) next.preset = 'Choose the preset to start from';
        setErrors(next);
        if (Object.keys(next).length > 0 || !preset) return;
        create.mutate(
          { name: name.trim(), preset },
          { onError: (error) => setFormError(applyServerErrors({ setFieldError: (path, message) => setErrors((current) => ({ ...current, [path === 'preset' ? 'preset' : 'name']: message })) }, error, { fields: ['name', 'preset'] })) },
        );
      }}
      error={formError}
      submitLabel="Create template"
      pending={create.isPending}
    >
      <Select
        label="Preset"
        data={ANSWER_KINDS.map((kind) => ({ group: ANSWER_KIND_LABELS[kind], items: (presets.data ?? []).filter((candidate) => candidate.kind === kind).map((candidate) => ({ value: candidate.id, label: candidate.name })) })).filter((group) => group.items.length > 0)}
        value={preset}
        onChange={(value) => {
          setPreset(value);
          const picked = presets.data?.find((candidate) => candidate.id === value);
          if (picked && name.trim() === '') setName(picked.name);
        }}
        searchable
        error={errors.preset ?? (presets.isError ? `Could not load the presets: ${presets.error.message}` : undefined)}
        placeholder={presets.isPending ? 'Loading the presets…' : undefined}
        withAsterisk
      />
      {chosen && (
        <Text size="sm" c="dimmed">
          {chosen.description} Variables: {chosen.variables.map((variable) => `${variable.name}${variable.secret ? ' (secret)' : ''}`).join(', ') || 'none'}.
        </Text>
      )}
      <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={errors.name} withAsterisk />
    </FormDialog>
  );
}

/** `/netboot/templates`: answer-file templates (preseed, kickstart…); one opens its editor. */
export function TemplatesPage() {
  const table = useTableParams({ filters: ['kind'] as const });
  const query = useApiPage(keys.netbootTemplates, table.apiParams, (api, params) => api.netboot.templates.list(params));
  const canEdit = useCan('operator');
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="md">
      <PageHeader
        title="Answer templates"
        description="The answers an installer reads to run unattended (preseed, kickstart, autoinstall, AutoYaST, Alpine, autounattend), as Liquid templates with versions."
        actions={canEdit && <Button onClick={() => setCreating(true)}>New template</Button>}
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search templates', placeholder: 'Search name, description' }}
        filters={[{ kind: 'select', name: 'kind', label: 'Kind', options: ANSWER_KINDS.map((kind) => ({ value: kind, label: ANSWER_KIND_LABELS[kind] })), width: 230 }]}
      />
      <ServerTable label="Answer templates" columns={COLUMNS} query={query} table={table} rowKey={(template) => template.id} emptyText="No template yet. Create one from a preset." />
      <NewTemplateDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
