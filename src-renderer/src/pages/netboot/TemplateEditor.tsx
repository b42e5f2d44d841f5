import { Badge, Button, Card, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { ANSWER_KINDS, AnswerTemplateWriteSchema, type AnswerKind, type AnswerTemplate, type AnswerTemplateWrite, type ValidationResult } from '@contracts/netboot';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Value } from 'typebox/value';
import { isApiError } from '../../api/api-error.js';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { fieldPath } from '../../components/form-errors.js';
import { FormError, SaveButtons } from '../../components/kit/index.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ANSWER_KIND_LABELS } from './netboot-labels.js';
import { issueMarkers, ValidationIssues } from './ValidationIssues.js';
import { rowsToVariables, toRows, VariableRows, type VariableRow } from './variable-rows.js';

const FIELDS = AnswerTemplateWriteSchema.properties;

interface Draft {
  name: string;
  kind: AnswerKind;
  description: string;
  content: string;
  variables: VariableRow[];
  comment: string;
}

const toDraft = (template: AnswerTemplate): Draft => ({
  name: template.name,
  kind: template.kind,
  description: template.description,
  content: template.content,
  variables: toRows(template.variables),
  comment: '',
});

const sameDraft = (a: Draft, b: Draft) => JSON.stringify({ ...a, comment: '' }) === JSON.stringify({ ...b, comment: '' });

type Errors = Partial<Record<'name' | 'description' | 'content' | 'secrets', string>>;

/**
 * The secret variables: their values never come back; each shows "set" and
 * can be replaced or removed. New ones are typed into password fields.
 */
function Secrets({
  names,
  changes,
  onChange,
  newRows,
  onNewRows,
  readOnly,
}: {
  names: readonly string[];
  /** Changes to existing secrets: a new value, or null to remove. */
  changes: Record<string, string | null>;
  onChange: (next: Record<string, string | null>) => void;
  newRows: VariableRow[];
  onNewRows: (rows: VariableRow[]) => void;
  readOnly: boolean;
}) {
  return (
    <Stack gap={6}>
      {names.map((name) => {
        const change = changes[name];
        return (
          <Group key={name} gap="xs" wrap="nowrap">
            <Text size="sm" className="mono" w={200}>
              {name}
            </Text>
            {change === undefined ? (
              <Badge color="teal" variant="light" radius="sm" style={{ textTransform: 'none' }} aria-label={`${name} is set`}>
                set
              </Badge>
            ) : change === null ? (
              <Badge color="red" variant="light" radius="sm" style={{ textTransform: 'none' }}>
                removed when saved
              </Badge>
            ) : (
              <TextInput aria-label={`New value of ${name}`} type="password" autoComplete="new-password" value={change} onChange={(event) => onChange({ ...changes, [name]: event.currentTarget.value })} style={{ flex: 1 }} />
            )}
            {!readOnly && change === undefined && (
              <Button size="compact-xs" variant="default" aria-label={`Replace ${name}`} onClick={() => onChange({ ...changes, [name]: '' })}>
                Replace
              </Button>
            )}
            {!readOnly && change !== undefined && (
              <Button size="compact-xs" variant="default" aria-label={`Keep ${name}`} onClick={() => onChange(Object.fromEntries(Object.entries(changes).filter(([key]) => key !== name)))}>
                Keep
              </Button>
            )}
            {!readOnly && change !== null && (
              <Button size="compact-xs" variant="light" color="red" aria-label={`Remove secret ${name}`} onClick={() => onChange({ ...changes, [name]: null })}>
                Remove
              </Button>
            )}
          </Group>
        );
      })}
      {readOnly ? names.length === 0 && <Text size="sm" c="dimmed">None.</Text> : <VariableRows rows={newRows} onChange={onNewRows} label="Secret" secret />}
    </Stack>
  );
}

/** The write-only `secrets` of a save: replaced and removed ones, and the new rows (an empty replacement keeps the old value). */
export function secretsBody(changes: Record<string, string | null>, newRows: readonly VariableRow[]): Record<string, string | null> {
  const secrets: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(changes)) if (value === null || value !== '') secrets[name] = value;
  for (const row of newRows) if (row.name.trim() !== '') secrets[row.name.trim()] = row.value;
  return secrets;
}

/** Edit an answer template: content (CodeMirror) with Validate and its issues at their lines, variables, secrets. */
export function TemplateEditor({ template }: { template: AnswerTemplate }) {
  const readOnly = !useCan('operator');
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [draft, setDraft] = useState<Draft>(() => toDraft(template));
  const [saved, setSaved] = useState<Draft>(() => toDraft(template));
  const [secretChanges, setSecretChanges] = useState<Record<string, string | null>>({});
  const [newSecrets, setNewSecrets] = useState<VariableRow[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [rowProblems, setRowProblems] = useState<Record<number, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [validation, setValidation] = useState<ValidationResult | null>(null);

  // A newer template from the server (another user, a rollback) replaces an unchanged draft.
  useEffect(() => {
    const next = toDraft(template);
    setSaved(next);
    setDraft((current) => (sameDraft(current, saved) ? next : current));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template]);

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const dirty = !sameDraft(draft, saved) || draft.comment !== '' || Object.keys(secretChanges).length > 0 || newSecrets.length > 0;
  const markers = useMemo(() => issueMarkers(validation), [validation]);

  const validate = useApiAction((api, body: { kind: AnswerKind; content: string; variables: Record<string, string> }) => api.netboot.templates.validate(body), {
    errorTitle: 'Validation failed to run',
    onSuccess: setValidation,
  });
  const save = useApiAction((api, body: AnswerTemplateWrite) => api.netboot.templates.update(template.id, body), {
    invalidate: [keys.netbootTemplates],
    notifyErrors: false,
    success: (result) => `Template ${result.name} saved (version ${result.version}).`,
  });
  const remove = useApiAction((api) => api.netboot.templates.remove(template.id), {
    invalidate: [keys.netbootTemplates],
    errorTitle: 'The template was not deleted',
    success: `Template ${template.name} deleted.`,
    onSuccess: () => void navigate('/netboot/templates'),
  });

  const submit = () => {
    setFormError(null);
    const next: Errors = {};
    if (!Value.Check(FIELDS.name, draft.name.trim())) next.name = '1 to 64 characters';
    if (!Value.Check(FIELDS.description, draft.description)) next.description = 'At most 1024 characters';
    if (!Value.Check(FIELDS.content, draft.content)) next.content = draft.content === '' ? 'The template is empty' : 'The template is too long';
    const secrets = secretsBody(secretChanges, newSecrets);
    if (Object.keys(secrets).length > 0 && !Value.Check(FIELDS.secrets, secrets)) next.secrets = 'Secret names: lowercase letters, digits and _; values up to 1024 characters; at most 16';
    const { variables, problems } = rowsToVariables(draft.variables);
    setErrors(next);
    setRowProblems(problems);
    if (Object.keys(next).length > 0 || Object.keys(problems).length > 0) return;
    const body: AnswerTemplateWrite = {
      name: draft.name.trim(),
      kind: draft.kind,
      description: draft.description,
      content: draft.content,
      variables,
      ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
      ...(draft.comment.trim() ? { comment: draft.comment.trim() } : {}),
    };
    save.mutate(body, {
      onSuccess: (result) => {
        const next = toDraft(result);
        setSaved(next);
        setDraft(next);
        setSecretChanges({});
        setNewSecrets([]);
      },
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return setFormError(error.message);
        const unplaced: string[] = [];
        for (const detail of error.details) {
          const top = fieldPath(detail.field)?.split('.')[0];
          if (top === 'name' || top === 'description' || top === 'content' || top === 'secrets') setErrors((current) => ({ ...current, [top]: detail.message }));
          else unplaced.push(`${detail.field}: ${detail.message}`);
        }
        setFormError(unplaced.length > 0 ? unplaced.join('; ') : null);
      },
    });
  };

  return (
    <form
      aria-label={`Template ${template.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <FormError message={formError} />
        <Card withBorder component="section" aria-labelledby="template-general-title">
          <Title order={2} size="h4" id="template-general-title" mb="sm">
            Template
          </Title>
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput label="Name" withAsterisk disabled={readOnly} value={draft.name} onChange={(event) => set({ name: event.currentTarget.value })} error={errors.name} />
              <Select label="Kind" data={ANSWER_KINDS.map((kind) => ({ value: kind, label: ANSWER_KIND_LABELS[kind] }))} allowDeselect={false} disabled={readOnly} value={draft.kind} onChange={(value) => { const kind = ANSWER_KINDS.find((candidate) => candidate === value); if (kind) set({ kind }); }} />
            </Group>
            <Textarea label="Description" autosize minRows={1} maxRows={4} disabled={readOnly} value={draft.description} onChange={(event) => set({ description: event.currentTarget.value })} error={errors.description} />
            <CodeEditor
              label="Answer file template"
              description="Liquid: {{ host.hostname }}, {{ variables.name }}, {{ secrets.name }}, {{ urls.answer }}, {{ urls.callback }}…"
              value={draft.content}
              onChange={(content) => set({ content })}
              readOnly={readOnly}
              error={errors.content}
              markers={markers}
              height="28rem"
            />
            <Group gap="xs">
              {!readOnly && (
              <Button variant="default" loading={validate.isPending} onClick={() => validate.mutate({ kind: draft.kind, content: draft.content, variables: rowsToVariables(draft.variables).variables })}>
                Validate
              </Button>
              )}
              {validation && (
                <Button variant="subtle" size="xs" onClick={() => setValidation(null)}>
                  Hide issues
                </Button>
              )}
            </Group>
            {validation && <ValidationIssues result={validation} />}
          </Stack>
        </Card>

        <Card withBorder component="section" aria-labelledby="template-vars-title">
          <Title order={2} size="h4" id="template-vars-title">
            Variables
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Defaults the template sees as {'{{ variables.name }}'}; a task's own variables win.
          </Text>
          <VariableRows rows={draft.variables} onChange={(variables) => set({ variables })} problems={rowProblems} readOnly={readOnly} />
        </Card>

        <Card withBorder component="section" aria-labelledby="template-secrets-title">
          <Title order={2} size="h4" id="template-secrets-title">
            Secret variables
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Passwords and keys, as {'{{ secrets.name }}'}: stored encrypted, never shown again, masked in previews.
          </Text>
          <Secrets names={template.secret_names} changes={secretChanges} onChange={setSecretChanges} newRows={newSecrets} onNewRows={setNewSecrets} readOnly={readOnly} />
          {errors.secrets && (
            <Text size="xs" c="red" role="alert" mt={4}>
              {errors.secrets}
            </Text>
          )}
        </Card>

        {!readOnly && (
          <Group justify="space-between" align="flex-end">
            <Button
              variant="subtle"
              color="red"
              onClick={async () => {
                if (await confirm({ title: `Delete template ${template.name}?`, message: 'The template and all its versions are deleted. Tasks that use it keep their rendered history but cannot be restarted with it.', confirmLabel: 'Delete template' })) {
                  remove.mutate(undefined);
                }
              }}
            >
              Delete template
            </Button>
            <Group gap="xs" align="flex-end">
              <TextInput label="Version comment" placeholder="What changed (optional)" w={260} value={draft.comment} onChange={(event) => set({ comment: event.currentTarget.value })} />
              <SaveButtons
                dirty={dirty}
                saving={save.isPending}
                onDiscard={() => {
                  setDraft(saved);
                  setSecretChanges({});
                  setNewSecrets([]);
                  setErrors({});
                }}
                saveLabel="Save template"
              />
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}
