import { ActionIcon, Badge, Button, Card, Checkbox, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { DEFAULT_SCRIPT_TIMEOUT_SECONDS, MAX_BASELINE_SCRIPTS } from '@contracts/baselines';
import type { OsFamily, Script } from '@contracts/scripts';
import { useState } from 'react';
import { moveStep, OS_FAMILY_LABELS, scriptFits, type BaselineForm, type StepForm } from './baseline-form-model.js';

interface StepsEditorProps {
  form: UseFormReturnType<BaselineForm>;
  /** Every script (for names, declared variables and the picker); null while loading. */
  scripts: Script[] | null;
  readOnly: boolean;
}

/** One step: its script, the variable overrides beside the declared defaults, failure handling and timeout. */
function StepCard({ form, index, step, script, family, count, readOnly }: { form: UseFormReturnType<BaselineForm>; index: number; step: StepForm; script: Script | undefined; family: OsFamily; count: number; readOnly: boolean }) {
  const position = index + 1;
  const declared = script?.variables ?? {};
  // Declared variables first, then overrides the script no longer declares (the server refuses those; shown so they can be cleared).
  const names = [...Object.keys(declared), ...Object.keys(step.variables).filter((name) => !(name in declared))];
  const scriptError = form.errors[`steps.${index}.script_id`];
  return (
    <Card withBorder padding="sm" component="li" aria-label={`Step ${position}: ${script?.name ?? `script #${step.script_id}`}`}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Group gap="xs">
          <Text fw={600}>{position}.</Text>
          <Text fw={500}>{script?.name ?? `Script #${step.script_id}`}</Text>
          {script && (
            <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>
              {script.kind}
            </Badge>
          )}
        </Group>
        {!readOnly && (
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="default" aria-label={`Move step ${position} up`} disabled={index === 0} onClick={() => form.setFieldValue('steps', moveStep(form.getValues().steps, index, index - 1))}>
              <span aria-hidden="true">↑</span>
            </ActionIcon>
            <ActionIcon variant="default" aria-label={`Move step ${position} down`} disabled={index === count - 1} onClick={() => form.setFieldValue('steps', moveStep(form.getValues().steps, index, index + 1))}>
              <span aria-hidden="true">↓</span>
            </ActionIcon>
            <ActionIcon variant="default" color="red" aria-label={`Remove step ${position}`} onClick={() => form.removeListItem('steps', index)}>
              <span aria-hidden="true">×</span>
            </ActionIcon>
          </Group>
        )}
      </Group>
      {script && !scriptFits(family, script) && (
        <Text size="xs" c="orange" mb="xs">
          This script is for {OS_FAMILY_LABELS[script.os_family]}, not {OS_FAMILY_LABELS[family]}: the server refuses it here.
        </Text>
      )}
      {typeof scriptError === 'string' && (
        <Text size="xs" c="red" role="alert" mb="xs">
          {scriptError}
        </Text>
      )}
      <Stack gap="xs">
        {names.length > 0 ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs">
            {names.map((name) => {
              const fallback = declared[name];
              return (
                <TextInput
                  key={name}
                  label={name}
                  aria-label={`Step ${position} variable ${name}`}
                  description={fallback === undefined ? 'Not declared by the script' : fallback === '' ? 'Default: empty' : `Default: ${fallback}`}
                  placeholder={fallback ?? ''}
                  disabled={readOnly}
                  {...form.getInputProps(`steps.${index}.variables.${name}`)}
                  value={step.variables[name] ?? ''}
                />
              );
            })}
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            The script declares no variables.
          </Text>
        )}
        <Group gap="md" align="flex-end">
          <Checkbox label="Continue on error" aria-label={`Step ${position} continues on error`} disabled={readOnly} {...form.getInputProps(`steps.${index}.continue_on_error`, { type: 'checkbox' })} />
          <NumberInput
            label="Timeout (seconds)"
            aria-label={`Step ${position} timeout in seconds`}
            placeholder={String(DEFAULT_SCRIPT_TIMEOUT_SECONDS)}
            min={1}
            max={6 * 3600}
            allowDecimal={false}
            w={180}
            disabled={readOnly}
            {...form.getInputProps(`steps.${index}.timeout_seconds`)}
          />
        </Group>
      </Stack>
    </Card>
  );
}

/** The ordered scripts of a baseline: add from a picker of scripts that fit the OS family, reorder, set overrides. */
export function StepsEditor({ form, scripts, readOnly }: StepsEditorProps) {
  const [picked, setPicked] = useState<string | null>(null);
  const values = form.getValues();
  const byId = new Map((scripts ?? []).map((script) => [script.id, script]));
  const fitting = (scripts ?? []).filter((script) => scriptFits(values.os_family, script));
  const stepsError = form.errors.steps;

  const add = () => {
    const script = picked === null ? undefined : byId.get(Number(picked));
    if (!script) return;
    form.insertListItem('steps', { script_id: script.id, variables: {}, continue_on_error: false, timeout_seconds: '' } satisfies StepForm);
    setPicked(null);
  };

  return (
    <Card withBorder component="section" aria-labelledby="baseline-steps-title">
      <Title order={2} size="h4" id="baseline-steps-title">
        Scripts
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Run in this order on the installed machine; a failing script stops the run unless it may continue on error.
      </Text>
      <Stack gap="sm">
        {values.steps.length === 0 ? (
          <Text size="sm" c="dimmed">
            No scripts yet.
          </Text>
        ) : (
          <Stack gap="sm" component="ol" aria-label="Baseline scripts" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {values.steps.map((step, index) => (
              <StepCard key={`${index}-${step.script_id}`} form={form} index={index} step={step} script={byId.get(step.script_id)} family={values.os_family} count={values.steps.length} readOnly={readOnly} />
            ))}
          </Stack>
        )}
        {typeof stepsError === 'string' && (
          <Text size="xs" c="red" role="alert">
            {stepsError}
          </Text>
        )}
        {!readOnly && (
          <Group gap="xs" align="flex-end">
            <Select
              label="Script to add"
              description={`Scripts for ${OS_FAMILY_LABELS[values.os_family]} or any OS`}
              placeholder={scripts === null ? 'Loading scripts…' : fitting.length === 0 ? 'No fitting script' : 'Choose a script'}
              data={fitting.map((script) => ({ value: String(script.id), label: `${script.name} (${script.kind})` }))}
              value={picked}
              onChange={setPicked}
              searchable
              w={320}
            />
            <Button variant="default" onClick={add} disabled={picked === null || values.steps.length >= MAX_BASELINE_SCRIPTS}>
              Add script
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
