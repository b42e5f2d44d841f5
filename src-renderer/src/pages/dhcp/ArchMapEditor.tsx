import { ActionIcon, Button, Card, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { ArchmapEntrySchema, type ArchmapEntry as ArchMapEntry } from '@contracts/dhcp';
import { Value } from 'typebox/value';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormError, SaveButtons } from '../../components/kit/index.js';
import { QueryState } from '../../components/QueryState.js';
import { useApi, useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

interface EntryForm {
  code: number | string;
  name: string;
  boot_file: string;
  http_boot_url_path: string;
  alternatives: string;
}

const toForm = (entries: ArchMapEntry[]): { entries: EntryForm[] } => ({
  entries: entries.map((entry) => ({
    code: entry.code,
    name: entry.name,
    boot_file: entry.boot_file ?? '',
    http_boot_url_path: entry.http_boot_url_path ?? '',
    alternatives: entry.alternatives.join(', '),
  })),
});

export function archMapFromForm(entries: EntryForm[]): ArchMapEntry[] {
  return entries.map((entry) => ({
    code: Number(entry.code),
    name: entry.name.trim(),
    boot_file: entry.boot_file.trim() === '' ? null : entry.boot_file.trim(),
    http_boot_url_path: entry.http_boot_url_path.trim() === '' ? null : entry.http_boot_url_path.trim(),
    alternatives: entry.alternatives.split(/[\s,]+/).filter((item) => item !== ''),
  }));
}

function Editor({ entries }: { entries: ArchMapEntry[] }) {
  const readOnly = !useCan('operator');
  const confirm = useConfirm();
  const api = useApi();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: toForm(entries),
    validate: {
      entries: {
        code: (value) => (value !== '' && Value.Check(ArchmapEntrySchema.properties.code, Number(value)) ? null : '0–65535'),
        name: (value) => (value.trim() === '' ? 'Name the architecture' : null),
      },
    },
  });
  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(toForm(entries));
      form.resetDirty(toForm(entries));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entries]);

  const save = useApiAction((api, body: ArchMapEntry[]) => api.dhcp.archmap.replace(body), {
    invalidate: [keys.archmap, keys.bootloaders],
    notifyErrors: false,
    success: 'Architecture map saved.',
    onSuccess: (saved) => {
      form.setValues(toForm(saved.entries));
      form.resetDirty(toForm(saved.entries));
    },
  });

  const restore = async () => {
    const ok = await confirm({
      title: 'Restore the default architecture map?',
      message: 'Every entry is replaced by the built-in map; your changes to it are lost.',
      confirmLabel: 'Restore defaults',
    });
    if (!ok) return;
    setFormError(null);
    try {
      const defaults = await api.dhcp.archmap.defaults();
      save.mutate(defaults.entries, { onError: (error) => setFormError(error.message) });
    } catch (error) {
      setFormError(error instanceof Error ? error.message : String(error));
    }
  };

  const values = form.getValues().entries;
  return (
    <form
      aria-label="Architecture map"
      onSubmit={form.onSubmit((submitted) => {
        setFormError(null);
        save.mutate(archMapFromForm(submitted.entries), { onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['entries'] })) });
      })}
    >
      <Stack gap="sm">
        <FormError message={formError} />
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing={4}>
            <caption className="visually-hidden">Architecture map</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={100}>Option 93 code</Table.Th>
                <Table.Th>Architecture</Table.Th>
                <Table.Th>TFTP boot file</Table.Th>
                <Table.Th>HTTP boot path</Table.Th>
                <Table.Th>Alternatives</Table.Th>
                {!readOnly && (
                  <Table.Th>
                    <span className="visually-hidden">Remove</span>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {values.map((entry, index) => {
                const label = entry.name || `entry ${index + 1}`;
                return (
                  <Table.Tr key={index}>
                    <Table.Td>
                      <NumberInput aria-label={`Code of ${label}`} min={0} max={65535} allowDecimal={false} disabled={readOnly} {...form.getInputProps(`entries.${index}.code`)} />
                    </Table.Td>
                    <Table.Td>
                      <TextInput aria-label={`Architecture name of entry ${index + 1}`} disabled={readOnly} {...form.getInputProps(`entries.${index}.name`)} />
                    </Table.Td>
                    <Table.Td>
                      <TextInput aria-label={`TFTP boot file of ${label}`} placeholder="none" disabled={readOnly} {...form.getInputProps(`entries.${index}.boot_file`)} />
                    </Table.Td>
                    <Table.Td>
                      <TextInput aria-label={`HTTP boot path of ${label}`} placeholder="none" disabled={readOnly} {...form.getInputProps(`entries.${index}.http_boot_url_path`)} />
                    </Table.Td>
                    <Table.Td>
                      <TextInput aria-label={`Alternative files of ${label}`} placeholder="none" disabled={readOnly} {...form.getInputProps(`entries.${index}.alternatives`)} />
                    </Table.Td>
                    {!readOnly && (
                      <Table.Td>
                        <ActionIcon variant="default" size="lg" aria-label={`Remove ${label}`} onClick={() => form.removeListItem('entries', index)}>
                          <span aria-hidden="true">×</span>
                        </ActionIcon>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {values.length === 0 && <Text c="dimmed">The map is empty: PXE clients get no boot file.</Text>}
        {!readOnly && (
          <Group justify="space-between">
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => form.insertListItem('entries', { code: '', name: '', boot_file: '', http_boot_url_path: '', alternatives: '' })}>
                Add entry
              </Button>
              <Button variant="subtle" color="red" size="xs" onClick={() => void restore()}>
                Restore defaults
              </Button>
            </Group>
            <Group gap="xs">
              <SaveButtons dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save map" />
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** GET/PUT /services/archmap: which boot file each client architecture (DHCP option 93, RFC 4578) gets. */
export function ArchMapEditor() {
  const query = useApiQuery(keys.archmap, (api) => api.dhcp.archmap.get());
  return (
    <Card withBorder component="section" aria-labelledby="archmap-title">
      <Title order={2} size="h4" id="archmap-title">
        Architecture map
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The client architecture a PXE client reports (DHCP option 93) decides its boot file: over TFTP, or a path under /boot/ for UEFI HTTP boot. Paths are relative to the boot root.
      </Text>
      <QueryState query={query} what="the architecture map">
        {(data) => <Editor entries={data.entries} />}
      </QueryState>
    </Card>
  );
}
