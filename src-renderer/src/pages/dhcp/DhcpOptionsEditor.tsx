import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { CUSTOM_OPTION_TYPES as DHCP_OPTION_TYPES, type CustomOptionType as DhcpOptionType } from '@contracts/dhcp';
import type { OptionForm } from './dhcp-form-model.js';

/** The slice of a Mantine form the editor needs, for a list at `path`. */
export interface OptionsFormApi {
  getInputProps(path: string): object;
  insertListItem(path: string, item: OptionForm): void;
  removeListItem(path: string, index: number): void;
}

const TYPE_HINTS: Record<DhcpOptionType, string> = {
  ip: '192.168.1.1',
  ips: '192.168.1.1, 192.168.1.2',
  string: 'text',
  uint8: '0–255',
  uint16: '0–65535',
  uint32: '0–4294967295',
  bool: 'true or false',
  hex: '0a1b2c',
};

/** Custom DHCP options (code, type, value) of a subnet or a reservation. */
export function DhcpOptionsEditor({ form, path, options, readOnly, owner }: { form: OptionsFormApi; path: string; options: OptionForm[]; readOnly: boolean; owner: string }) {
  return (
    <Stack gap={6}>
      {options.length === 0 && (
        <Text size="sm" c="dimmed">
          No custom options.
        </Text>
      )}
      {options.map((option, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <NumberInput aria-label={`Option ${index + 1} code (${owner})`} placeholder="Code" min={1} max={254} allowDecimal={false} w={90} disabled={readOnly} {...form.getInputProps(`${path}.${index}.code`)} />
          <Select aria-label={`Option ${index + 1} type (${owner})`} data={[...DHCP_OPTION_TYPES]} allowDeselect={false} w={110} disabled={readOnly} {...form.getInputProps(`${path}.${index}.type`)} />
          <TextInput aria-label={`Option ${index + 1} value (${owner})`} placeholder={TYPE_HINTS[option.type]} style={{ flex: 1 }} disabled={readOnly} {...form.getInputProps(`${path}.${index}.value`)} />
          {!readOnly && (
            <ActionIcon variant="default" size="lg" aria-label={`Remove option ${index + 1} (${owner})`} onClick={() => form.removeListItem(path, index)}>
              <span aria-hidden="true">×</span>
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem(path, { code: '', type: 'string', value: '' })}>
          Add option
        </Button>
      )}
    </Stack>
  );
}
