import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { VariablesSchema, type Variables } from '@contracts/netboot';
import { Value } from 'typebox/value';

export interface VariableRow {
  name: string;
  value: string;
}

export const toRows = (variables: Variables): VariableRow[] => Object.entries(variables).map(([name, value]) => ({ name, value }));

/**
 * The rows as `variables`, or the problem of each bad row by index: the
 * contract's VariablesSchema decides what a valid name and value are.
 */
export function rowsToVariables(rows: readonly VariableRow[]): { variables: Variables; problems: Record<number, string> } {
  const variables: Variables = {};
  const problems: Record<number, string> = {};
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (name === '' && row.value === '') return;
    if (name in variables) problems[index] = `"${name}" is set twice`;
    else if (!Value.Check(VariablesSchema, { [name]: row.value })) problems[index] = 'Lowercase letters, digits and _ (not first), at most 64; values up to 4096 characters';
    else variables[name] = row.value;
  });
  if (Object.keys(problems).length === 0 && !Value.Check(VariablesSchema, variables)) problems[rows.length] = 'At most 64 variables';
  return { variables, problems };
}

/** Name/value rows of template variables (`variables.<name>`), with an error per row. */
export function VariableRows({
  rows,
  onChange,
  problems = {},
  readOnly = false,
  label = 'Variable',
  secret = false,
}: {
  rows: readonly VariableRow[];
  onChange: (rows: VariableRow[]) => void;
  problems?: Record<number, string>;
  readOnly?: boolean;
  label?: string;
  /** Values are write-only (passwords): typed hidden. */
  secret?: boolean;
}) {
  const set = (index: number, change: Partial<VariableRow>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <Stack gap={6}>
      {rows.map((row, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput aria-label={`${label} ${index + 1} name`} placeholder="name" w={200} disabled={readOnly} value={row.name} error={problems[index]} onChange={(event) => set(index, { name: event.currentTarget.value })} />
          <TextInput
            aria-label={`${label} ${index + 1} value`}
            placeholder="value"
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'new-password' : undefined}
            style={{ flex: 1 }}
            disabled={readOnly}
            value={row.value}
            onChange={(event) => set(index, { value: event.currentTarget.value })}
          />
          {!readOnly && (
            <ActionIcon variant="default" size="lg" aria-label={`Remove ${label.toLowerCase()} ${index + 1}`} onClick={() => onChange(rows.filter((_, at) => at !== index))}>
              <span aria-hidden="true">×</span>
            </ActionIcon>
          )}
        </Group>
      ))}
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {problems[rows.length] && (
        <Text size="xs" c="red" role="alert">
          {problems[rows.length]}
        </Text>
      )}
      {!readOnly && (
        <Button variant="subtle" size="xs" w="fit-content" onClick={() => onChange([...rows, { name: '', value: '' }])}>
          Add {label.toLowerCase()}
        </Button>
      )}
    </Stack>
  );
}
