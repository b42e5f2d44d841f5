import { Button, Card, Code, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { KIND_FAMILY, OS_FAMILIES, SCRIPT_KINDS, ScriptFieldSchemas, type OsFamily, type Script, type ScriptCheck, type ScriptKind, type ScriptUpdate, type ScriptVariables } from '@contracts/scripts';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Value } from 'typebox/value';
import { isApiError } from '../../api/api-error.js';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { fieldPath } from '../../components/form-errors.js';
import { notifyError } from '../../components/notify.js';
import { FormError, SaveButtons } from '../../components/kit/index.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { toRows, VariableRows, type VariableRow } from '../netboot/variable-rows.js';
import { OS_FAMILY_LABELS, SCRIPT_KIND_LABELS } from './script-labels.js';
import { rowsToScriptVariables } from './script-variables.js';
import { checkMarkers, ScriptCheckIssues } from './ScriptCheckIssues.js';

interface Draft {
  name: string;
  kind: ScriptKind;
  os_family: OsFamily;
  description: string;
  content: string;
  variables: VariableRow[];
  comment: string;
}

const toDraft = (script: Script): Draft => ({
  name: script.name,
  kind: script.kind,
  os_family: script.os_family,
  description: script.description,
  content: script.content,
  variables: toRows(script.variables),
  comment: '',
});

const sameDraft = (a: Draft, b: Draft) => JSON.stringify({ ...a, comment: '' }) === JSON.stringify({ ...b, comment: '' });

type Errors = Partial<Record<'name' | 'description' | 'content' | 'os_family' | 'kind', string>>;
const PLACED = new Set(['name', 'description', 'content', 'os_family', 'kind']);

/** The family a kind change leaves: the current one when it still fits, else the kind's own (what the server does). */
function familyFor(kind: ScriptKind, current: OsFamily): OsFamily {
  const only = KIND_FAMILY[kind];
  return only === 'any' || only === current ? current : only;
}

/** Edit a script: kind, OS family, content (CodeMirror) with Check and its issues at their lines, variables; delete. */
export function ScriptEditor({ script }: { script: Script }) {
  const readOnly = !useCan('operator');
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [draft, setDraft] = useState<Draft>(() => toDraft(script));
  const [saved, setSaved] = useState<Draft>(() => toDraft(script));
  const [errors, setErrors] = useState<Errors>({});
  const [rowProblems, setRowProblems] = useState<Record<number, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [check, setCheck] = useState<ScriptCheck | null>(null);

  // A newer script from the server (another user, a rollback) replaces an unchanged draft.
  useEffect(() => {
    const next = toDraft(script);
    setSaved(next);
    setDraft((current) => (sameDraft(current, saved) ? next : current));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script]);

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const dirty = !sameDraft(draft, saved) || draft.comment !== '';
  const markers = useMemo(() => checkMarkers(check), [check]);
  const fixedFamily = KIND_FAMILY[draft.kind] !== 'any';

  const runCheck = useApiAction((api, body: { kind: ScriptKind; content: string; variables: ScriptVariables }) => api.scripts.check(body), {
    errorTitle: 'The check did not run',
    onSuccess: setCheck,
  });
  const save = useApiAction((api, body: ScriptUpdate) => api.scripts.update(script.id, body), {
    invalidate: [keys.scripts],
    notifyErrors: false,
    success: (result) => `Script ${result.name} saved (version ${result.version}).`,
  });
  const remove = useApiAction((api, force: boolean) => api.scripts.remove(script.id, { force }), {
    invalidate: [keys.scripts],
    notifyErrors: false,
    success: `Script ${script.name} deleted.`,
    onSuccess: () => void navigate('/scripts'),
  });

  const deleteScript = async () => {
    if (!(await confirm({ title: `Delete script ${script.name}?`, message: 'The script and all its versions are deleted.', confirmLabel: 'Delete script' }))) return;
    remove.mutate(false, {
      onError: async (error) => {
        if (!isApiError(error) || error.code !== 'CONFLICT') return notifyError(error, 'The script was not deleted');
        const users = error.details.map((detail) => detail.message).join(', ');
        const forced = await confirm({
          title: `${script.name} is in use`,
          message: `Used by ${users || 'baselines'}. Deleting it leaves them pointing at a missing script. Delete anyway?`,
          confirmLabel: 'Delete anyway',
        });
        if (forced) remove.mutate(true, { onError: (again) => notifyError(again, 'The script was not deleted') });
      },
    });
  };

  const submit = () => {
    setFormError(null);
    const next: Errors = {};
    if (!Value.Check(ScriptFieldSchemas.name, draft.name.trim())) next.name = '1 to 64 letters, digits, space . _ ( ) + -, starting with a letter or digit';
    if (!Value.Check(ScriptFieldSchemas.description, draft.description)) next.description = 'At most 1024 characters';
    if (!Value.Check(ScriptFieldSchemas.content, draft.content)) next.content = draft.content === '' ? 'The script is empty' : 'The script is too long';
    const { variables, problems } = rowsToScriptVariables(draft.variables);
    setErrors(next);
    setRowProblems(problems);
    if (Object.keys(next).length > 0 || Object.keys(problems).length > 0) return;
    const body: ScriptUpdate = {
      name: draft.name.trim(),
      kind: draft.kind,
      os_family: draft.os_family,
      description: draft.description,
      content: draft.content,
      variables,
      ...(draft.comment.trim() ? { comment: draft.comment.trim() } : {}),
    };
    save.mutate(body, {
      onSuccess: (result) => {
        const fresh = toDraft(result);
        setSaved(fresh);
        setDraft(fresh);
      },
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return setFormError(error.message);
        const unplaced: string[] = [];
        const contentErrors: string[] = [];
        for (const detail of error.details) {
          const top = fieldPath(detail.field)?.split('.')[0];
          if (top === 'content') contentErrors.push(detail.message);
          else if (top !== undefined && PLACED.has(top)) setErrors((current) => ({ ...current, [top]: detail.message }));
          else unplaced.push(`${detail.field}: ${detail.message}`);
        }
        if (contentErrors.length > 0) setErrors((current) => ({ ...current, content: contentErrors.join('; ') }));
        setFormError(unplaced.length > 0 ? unplaced.join('; ') : null);
      },
    });
  };

  return (
    <form
      aria-label={`Script ${script.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <FormError message={formError} />
        <Card withBorder component="section" aria-labelledby="script-general-title">
          <Title order={2} size="h4" id="script-general-title" mb="sm">
            Script
          </Title>
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput label="Name" withAsterisk disabled={readOnly} value={draft.name} onChange={(event) => set({ name: event.currentTarget.value })} error={errors.name} />
              <Select
                label="Kind"
                data={SCRIPT_KINDS.map((kind) => ({ value: kind, label: SCRIPT_KIND_LABELS[kind] }))}
                allowDeselect={false}
                disabled={readOnly}
                value={draft.kind}
                error={errors.kind}
                onChange={(value) => {
                  const kind = SCRIPT_KINDS.find((candidate) => candidate === value);
                  if (kind) set({ kind, os_family: familyFor(kind, draft.os_family) });
                }}
              />
              <Select
                label="OS family"
                data={OS_FAMILIES.map((family) => ({ value: family, label: OS_FAMILY_LABELS[family] }))}
                allowDeselect={false}
                disabled={readOnly || fixedFamily}
                value={draft.os_family}
                error={errors.os_family}
                onChange={(value) => {
                  const family = OS_FAMILIES.find((candidate) => candidate === value);
                  if (family) set({ os_family: family });
                }}
              />
            </Group>
            <Textarea label="Description" autosize minRows={1} maxRows={4} disabled={readOnly} value={draft.description} onChange={(event) => set({ description: event.currentTarget.value })} error={errors.description} />
            <CodeEditor
              label="Content"
              description="Liquid: {{ variable }}, {{ host.hostname }}, {{ host.ip }}, {{ server.base_url }}…; literal {{ goes in {% raw %}…{% endraw %}"
              value={draft.content}
              onChange={(content) => set({ content })}
              readOnly={readOnly}
              error={errors.content}
              markers={markers}
              height="28rem"
            />
            <Group gap="xs">
              {!readOnly && (
                <Button variant="default" loading={runCheck.isPending} onClick={() => runCheck.mutate({ kind: draft.kind, content: draft.content, variables: rowsToScriptVariables(draft.variables).variables })}>
                  Check
                </Button>
              )}
              {check && (
                <Button variant="subtle" size="xs" onClick={() => setCheck(null)}>
                  Hide issues
                </Button>
              )}
              <Text size="xs" c="dimmed">
                SHA-256 of the saved content: <Code>{script.sha256}</Code>
              </Text>
            </Group>
            {check && <ScriptCheckIssues result={check} />}
          </Stack>
        </Card>

        <Card withBorder component="section" aria-labelledby="script-vars-title">
          <Title order={2} size="h4" id="script-vars-title">
            Variables
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Defaults the script sees as {'{{ name }}'}; a baseline may override them.
          </Text>
          <VariableRows rows={draft.variables} onChange={(variables) => set({ variables })} problems={rowProblems} readOnly={readOnly} />
        </Card>

        {!readOnly && (
          <Group justify="space-between" align="flex-end">
            <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => void deleteScript()}>
              Delete script
            </Button>
            <Group gap="xs" align="flex-end">
              <TextInput label="Version comment" placeholder="What changed (optional)" w={260} value={draft.comment} onChange={(event) => set({ comment: event.currentTarget.value })} />
              <SaveButtons
                dirty={dirty}
                saving={save.isPending}
                onDiscard={() => {
                  setDraft(saved);
                  setErrors({});
                  setRowProblems({});
                }}
                saveLabel="Save script"
              />
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}
