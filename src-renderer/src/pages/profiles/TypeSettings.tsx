import { ActionIcon, Button, Group, NumberInput, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { useProfileOptions } from '../hosts/use-profile-options.js';
import type { ProfileForm } from './profile-form-model.js';

function MenuSettings({ form, readOnly, selfId }: { form: UseFormReturnType<ProfileForm>; readOnly: boolean; selfId: number | null }) {
  const { options } = useProfileOptions();
  const choices = options.filter((option) => option.value !== String(selfId));
  const values = form.getValues();
  const entryError = form.errors.menu_entries;
  const defaults = [
    { value: '', label: 'Local disk' },
    ...values.menu_entries.filter((entry) => entry.profile_id !== null).map((entry) => ({ value: entry.profile_id!, label: choices.find((c) => c.value === entry.profile_id)?.label ?? `#${entry.profile_id}` })),
  ];
  return (
    <Stack gap="sm">
      <Group grow align="flex-start">
        <TextInput label="Menu title" disabled={readOnly} {...form.getInputProps('menu_title')} />
        <NumberInput label="Timeout (seconds)" description="0 waits for a key" min={0} max={600} allowDecimal={false} disabled={readOnly} {...form.getInputProps('menu_timeout')} />
        <Select label="Default choice" data={defaults} allowDeselect={false} disabled={readOnly} {...form.getInputProps('menu_default')} />
      </Group>
      <div>
        <Text size="sm" fw={500}>
          Entries
        </Text>
        <Text size="xs" c="dimmed" mb={4}>
          One line per profile, in this order; "Boot from the local disk" is always added last.
        </Text>
        <Stack gap={6}>
          {values.menu_entries.map((_, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <Select
                aria-label={`Menu entry ${index + 1} profile`}
                placeholder="Choose a profile"
                data={choices}
                searchable
                disabled={readOnly}
                style={{ flex: 1 }}
                {...form.getInputProps(`menu_entries.${index}.profile_id`)}
              />
              <TextInput aria-label={`Menu entry ${index + 1} label`} placeholder="Label (default: the profile's name)" disabled={readOnly} style={{ flex: 1 }} {...form.getInputProps(`menu_entries.${index}.label`)} />
              {!readOnly && (
                <>
                  <ActionIcon variant="default" size="lg" aria-label={`Move entry ${index + 1} up`} disabled={index === 0} onClick={() => form.reorderListItem('menu_entries', { from: index, to: index - 1 })}>
                    <span aria-hidden="true">↑</span>
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" aria-label={`Remove entry ${index + 1}`} onClick={() => form.removeListItem('menu_entries', index)}>
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                </>
              )}
            </Group>
          ))}
          {typeof entryError === 'string' && (
            <Text size="xs" c="red" role="alert">
              {entryError}
            </Text>
          )}
          {!readOnly && (
            <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem('menu_entries', { profile_id: null, label: '' })}>
              Add entry
            </Button>
          )}
        </Stack>
      </div>
    </Stack>
  );
}

/** The settings of the chosen boot type; for generated types the resulting script is shown read-only. */
export function TypeSettings({ form, readOnly, selfId, generatedScript }: { form: UseFormReturnType<ProfileForm>; readOnly: boolean; selfId: number | null; generatedScript: string | null }) {
  const type = form.getValues().boot_type;
  const pathHelp = 'A path under the boot root (served at /boot/) or a URL; template expressions allowed';
  return (
    <Stack gap="sm">
      {type === 'ipxe_script' && (
        <CodeEditor
          label="Script template"
          description="iPXE script with Liquid: {{ host.hostname }}, {% if %}…; ${…} is expanded by iPXE. Escape then Tab leaves the editor."
          value={form.getValues().script}
          onChange={(value) => form.setFieldValue('script', value)}
          readOnly={readOnly}
          error={typeof form.errors.script === 'string' ? form.errors.script : null}
          height="24rem"
        />
      )}
      {type === 'linux' && (
        <>
          <TextInput label="Kernel" placeholder="debian/linux" description={pathHelp} withAsterisk disabled={readOnly} {...form.getInputProps('kernel')} />
          <TagsInput label="Initrds" placeholder="Type a path and press Enter" description="Loaded in this order (at most 16)" disabled={readOnly} {...form.getInputProps('initrds')} />
          <TextInput label="Kernel command line" placeholder="console=ttyS0 auto=true" disabled={readOnly} {...form.getInputProps('cmdline')} />
        </>
      )}
      {type === 'chain' && <TextInput label="Chain to URL" placeholder="http://server/script.ipxe" description={pathHelp} withAsterisk disabled={readOnly} {...form.getInputProps('chain_url')} />}
      {type === 'sanboot' && <TextInput label="ISO or disk image URL" placeholder="http://server/images/rescue.iso" description={pathHelp} withAsterisk disabled={readOnly} {...form.getInputProps('sanboot_url')} />}
      {type === 'local' && <Text size="sm">The machine leaves iPXE and boots its next boot device (normally the local disk).</Text>}
      {type === 'menu' && <MenuSettings form={form} readOnly={readOnly} selfId={selfId} />}
      {type !== 'ipxe_script' && generatedScript !== null && (
        <CodeEditor label="Generated script (saved version)" description="Generated from the settings above; change those, not this." value={generatedScript} readOnly maxHeight="16rem" />
      )}
    </Stack>
  );
}
