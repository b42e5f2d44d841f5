import { Button, Card, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Baseline, BaselineCreate } from '@contracts/baselines';
import { OS_FAMILIES } from '@contracts/scripts';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { fieldPath } from '../../components/form-errors.js';
import { FormError, SaveButtons } from '../../components/kit/index.js';
import { LoadError } from '../../components/QueryState.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { AssignmentEditor } from './AssignmentEditor.js';
import { baselineBody, baselineErrorPath, baselineProblems, baselineToForm, OS_FAMILY_LABELS, type BaselineForm } from './baseline-form-model.js';
import { StepsEditor } from './StepsEditor.js';

/** Create (baseline null) or edit a baseline: its fields, ordered scripts and assignment, saved in one request. */
export function BaselineEditor({ baseline }: { baseline: Baseline | null }) {
  const readOnly = !useCan('operator');
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<BaselineForm>({ initialValues: baselineToForm(baseline) });
  const scripts = useApiQuery(keys.scriptOptions, (api) => api.scripts.list({ size: 500 }).then((page) => page.data));

  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(baselineToForm(baseline));
      form.resetDirty(baselineToForm(baseline));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [baseline]);

  const save = useApiAction((api, body: BaselineCreate) => (baseline ? api.baselines.update(baseline.id, body) : api.baselines.create(body)), {
    invalidate: [keys.baselines],
    notifyErrors: false,
    success: (saved) => (baseline ? `Baseline ${saved.name} saved.` : `Baseline ${saved.name} created.`),
  });
  const remove = useApiAction((api, target: Baseline) => api.baselines.remove(target.id), {
    invalidate: [keys.baselines],
    errorTitle: 'The baseline was not deleted',
    success: (deleted) => `Baseline ${deleted.name} deleted.`,
    onSuccess: () => void navigate('/baselines'),
  });

  const submit = (values: BaselineForm) => {
    setFormError(null);
    form.clearErrors();
    const problems = baselineProblems(values);
    if (Object.keys(problems).length > 0) {
      form.setErrors(problems);
      return;
    }
    save.mutate(baselineBody(values), {
      onSuccess: (saved) => {
        const next = baselineToForm(saved);
        form.setValues(next);
        form.resetDirty(next);
        if (!baseline) void navigate(`/baselines/${saved.id}`, { replace: true });
      },
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return setFormError(error.message);
        const unplaced: string[] = [];
        for (const detail of error.details) {
          const path = fieldPath(detail.field);
          const target = path ? baselineErrorPath(path) : null;
          if (target) form.setFieldError(target, detail.message);
          else unplaced.push(`${detail.field}: ${detail.message}`);
        }
        setFormError(unplaced.length > 0 ? unplaced.join('; ') : null);
      },
    });
  };

  return (
    <form onSubmit={form.onSubmit(submit)} aria-label={baseline ? `Baseline ${baseline.name}` : 'New baseline'}>
      <Stack gap="md">
        <FormError message={formError} />
        <Card withBorder component="section" aria-labelledby="baseline-general-title">
          <Title order={2} size="h4" id="baseline-general-title" mb="sm">
            Baseline
          </Title>
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput label="Name" withAsterisk disabled={readOnly} data-autofocus {...form.getInputProps('name')} />
              <Select
                label="OS family"
                description="Which scripts fit: the family's own and those for any OS"
                data={OS_FAMILIES.map((family) => ({ value: family, label: OS_FAMILY_LABELS[family] }))}
                allowDeselect={false}
                disabled={readOnly}
                {...form.getInputProps('os_family')}
              />
            </Group>
            <Textarea label="Description" autosize minRows={1} maxRows={4} disabled={readOnly} {...form.getInputProps('description')} />
          </Stack>
        </Card>
        {scripts.isError && <LoadError what="the scripts" error={scripts.error} onRetry={() => void scripts.refetch()} />}
        <StepsEditor form={form} scripts={scripts.data ?? null} readOnly={readOnly} />
        <AssignmentEditor form={form} readOnly={readOnly} />
        {!readOnly && (
          <Group justify="space-between" align="flex-end">
            {baseline ? (
              <Button
                variant="subtle"
                color="red"
                onClick={async () => {
                  if (await confirm({ title: `Delete baseline ${baseline.name}?`, message: 'Machines it is assigned to get the next rule\'s baseline (or none). Its scripts stay.', confirmLabel: 'Delete baseline' })) {
                    remove.mutate(baseline);
                  }
                }}
              >
                Delete baseline
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <SaveButtons dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel={baseline ? 'Save baseline' : 'Create baseline'} />
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}
