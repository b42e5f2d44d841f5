import { Anchor, Badge, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { KIND_FAMILY, OS_FAMILIES, SCRIPT_KINDS, ScriptFieldSchemas, type OsFamily, type Script, type ScriptCreate, type ScriptKind } from '@contracts/scripts';
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
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { OS_FAMILY_LABELS, SCRIPT_KIND_LABELS, STARTER_CONTENT } from './script-labels.js';

const COLUMNS: Column<Script>[] = [
  {
    key: 'name',
    header: 'Name',
    sortKey: 'name',
    render: (script) => (
      <Anchor component={Link} to={`/scripts/${script.id}`} size="sm" fw={500}>
        {script.name}
      </Anchor>
    ),
  },
  { key: 'kind', header: 'Kind', sortKey: 'kind', render: (script) => <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>{SCRIPT_KIND_LABELS[script.kind]}</Badge> },
  { key: 'os_family', header: 'OS', sortKey: 'os_family', render: (script) => OS_FAMILY_LABELS[script.os_family] },
  { key: 'description', header: 'Description', render: (script) => (script.description ? <Text size="sm" lineClamp={2}>{script.description}</Text> : <Dim />) },
  { key: 'version', header: 'Version', sortKey: 'version', numeric: true, render: (script) => script.version },
  { key: 'updated_at', header: 'Changed', sortKey: 'updated_at', render: (script) => <span title={formatDateTime(script.updated_at)}>{formatRelative(script.updated_at)}</span> },
];

type NewErrors = Partial<Record<'name' | 'kind' | 'os_family', string>>;

/** Name a new script and pick its kind; it starts from a small script of that kind and opens in the editor. */
function NewScriptDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ScriptKind>('sh');
  const [family, setFamily] = useState<OsFamily | null>(null);
  const [errors, setErrors] = useState<NewErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useApiAction((api, body: ScriptCreate) => api.scripts.create(body), {
    invalidate: [keys.scripts],
    notifyErrors: false,
    success: (script) => `Script ${script.name} created.`,
    onSuccess: (script) => {
      onClose();
      void navigate(`/scripts/${script.id}`);
    },
  });
  const fixedFamily = KIND_FAMILY[kind] !== 'any';
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New script"
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        const next: NewErrors = {};
        if (!Value.Check(ScriptFieldSchemas.name, name.trim())) next.name = '1 to 64 letters, digits, space . _ ( ) + -, starting with a letter or digit';
        setErrors(next);
        if (Object.keys(next).length > 0) return;
        const body: ScriptCreate = { name: name.trim(), kind, content: STARTER_CONTENT[kind], ...(!fixedFamily && family ? { os_family: family } : {}) };
        create.mutate(body, {
          onError: (error) =>
            setFormError(
              applyServerErrors({ setFieldError: (path, message) => setErrors((current) => ({ ...current, [path === 'kind' || path === 'os_family' ? path : 'name']: message })) }, error, {
                fields: ['name', 'kind', 'os_family'],
              }),
            ),
        });
      }}
      error={formError}
      submitLabel="Create script"
      pending={create.isPending}
    >
      <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={errors.name} withAsterisk data-autofocus />
      <Select
        label="Kind"
        data={SCRIPT_KINDS.map((value) => ({ value, label: SCRIPT_KIND_LABELS[value] }))}
        value={kind}
        allowDeselect={false}
        onChange={(value) => {
          const picked = SCRIPT_KINDS.find((candidate) => candidate === value);
          if (picked) setKind(picked);
        }}
        error={errors.kind}
      />
      <Select
        label="OS family"
        description={fixedFamily ? `A ${SCRIPT_KIND_LABELS[kind]} script runs on ${OS_FAMILY_LABELS[KIND_FAMILY[kind]]} only.` : 'Which machines this PowerShell script is for.'}
        data={OS_FAMILIES.map((value) => ({ value, label: OS_FAMILY_LABELS[value] }))}
        value={fixedFamily ? KIND_FAMILY[kind] : (family ?? KIND_FAMILY[kind])}
        disabled={fixedFamily}
        allowDeselect={false}
        onChange={(value) => setFamily(OS_FAMILIES.find((candidate) => candidate === value) ?? null)}
        error={errors.os_family}
      />
      <Text size="sm" c="dimmed">
        The script starts from a short example of its kind; edit it and run Check before saving.
      </Text>
    </FormDialog>
  );
}

/** `/scripts`: post-install scripts a baseline runs on installed machines; one opens its editor. */
export function ScriptsPage() {
  const table = useTableParams({ filters: ['kind', 'os_family'] as const });
  const query = useApiPage(keys.scripts, table.apiParams, (api, params) => api.scripts.list(params));
  const canEdit = useCan('operator');
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="md">
      <PageHeader
        title="Post-install scripts"
        description="Shell, PowerShell, batch and cloud-init scripts that baselines run after an OS is installed; Liquid templates with variables, versions and a syntax check."
        actions={canEdit && <Button onClick={() => setCreating(true)}>New script</Button>}
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search scripts', placeholder: 'Search name, description' }}
        filters={[
          { kind: 'select', name: 'kind', label: 'Kind', options: SCRIPT_KINDS.map((kind) => ({ value: kind, label: SCRIPT_KIND_LABELS[kind] })), width: 180 },
          { kind: 'select', name: 'os_family', label: 'OS family', options: OS_FAMILIES.map((family) => ({ value: family, label: OS_FAMILY_LABELS[family] })), width: 160 },
        ]}
      />
      <ServerTable label="Scripts" columns={COLUMNS} query={query} table={table} rowKey={(script) => script.id} emptyText="No script yet." />
      <NewScriptDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
