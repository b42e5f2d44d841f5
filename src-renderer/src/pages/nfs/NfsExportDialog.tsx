import { EXPORT_PATH_PATTERN, type NfsExport, type NfsExportInput, type NfsPathCheck, type NfsSettingsView } from '@contracts/nfs';
import type { OsImage } from '@contracts/os-images';
import { Alert, Button, Group, List, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { FsBrowser } from '../../components/FsBrowser.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { exportSaveErrors, exportsWith, parseSubnets, subnetsProblem } from './nfs-model.js';

interface FormValues {
  path: string;
  source: 'folder' | 'image';
  folder: string;
  image_id: string | null;
  clients: string;
  enabled: boolean;
  comment: string;
}

const PATH = new RegExp(EXPORT_PATH_PATTERN);

function toForm(entry: NfsExport | null): FormValues {
  if (!entry) return { path: '', source: 'folder', folder: '', image_id: null, clients: '', enabled: true, comment: '' };
  return {
    path: entry.path,
    source: entry.image_id !== null ? 'image' : 'folder',
    folder: entry.folder ?? '',
    image_id: entry.image_id !== null ? String(entry.image_id) : null,
    clients: entry.clients.join(', '),
    enabled: entry.enabled,
    comment: entry.comment,
  };
}

export interface NfsExportDialogProps {
  opened: boolean;
  onClose: () => void;
  settings: NfsSettingsView;
  /** The position of the export being edited in settings.exports; null: a new one. */
  index: number | null;
  images: readonly OsImage[];
}

/** What validate-path found: problems stop the export, warnings are for the operator. */
function PathCheckResult({ check }: { check: NfsPathCheck }) {
  return (
    <div role="status" aria-label="Folder check">
      <Alert color={check.valid ? (check.warnings.length > 0 ? 'yellow' : 'green') : 'red'} title={check.valid ? 'The folder can be exported' : 'The folder cannot be exported'}>
        {check.real_path && check.real_path !== check.path && (
          <Text size="sm">
            Real path: <span className="mono">{check.real_path}</span>
          </Text>
        )}
        {check.problems.length + check.warnings.length > 0 && (
          <List size="sm">
            {check.problems.map((problem) => (
              <List.Item key={`p-${problem}`}>{problem}</List.Item>
            ))}
            {check.warnings.map((warning) => (
              <List.Item key={`w-${warning}`}>Warning: {warning}</List.Item>
            ))}
          </List>
        )}
      </Alert>
    </div>
  );
}

/** Add or edit one export: a folder (picked in the served roots and checked) or an OS image; saved by PUT of the whole list. */
export function NfsExportDialog({ opened, onClose, settings, index, images }: NfsExportDialogProps) {
  const editing = index === null ? null : (settings.exports[index] ?? null);
  const [formError, setFormError] = useState<string | null>(null);
  const [check, setCheck] = useState<NfsPathCheck | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const form = useForm<FormValues>({
    initialValues: toForm(editing),
    validate: {
      path: (value) => (PATH.test(value.trim()) ? null : 'An absolute path like /live: letters, digits, ., _ and -'),
      folder: (value, values) => (values.source === 'folder' && !value.trim().startsWith('/') ? 'Choose or enter an absolute folder path' : null),
      image_id: (value, values) => (values.source === 'image' && value === null ? 'Choose an OS image' : null),
      clients: (value) => subnetsProblem(value, true),
    },
  });
  useEffect(() => {
    if (!opened) return;
    form.setInitialValues(toForm(editing));
    form.setValues(toForm(editing));
    form.clearErrors();
    setFormError(null);
    setCheck(null);
    setBrowsing(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, editing]);

  const validate = useApiAction((api, path: string) => api.nfs.validatePath(path), { errorTitle: 'The folder could not be checked', onSuccess: setCheck });
  const save = useApiAction((api, list: NfsExportInput[]) => api.nfs.settings.update({ exports: list }), {
    invalidate: [keys.nfs],
    notifyErrors: false,
    success: editing ? `Export ${editing.path} saved.` : 'Export added.',
    onSuccess: onClose,
  });

  const submit = (values: FormValues) => {
    setFormError(null);
    const input: NfsExportInput = {
      ...(editing ? { id: editing.id } : {}),
      path: values.path.trim(),
      folder: values.source === 'folder' ? values.folder.trim() : null,
      image_id: values.source === 'image' && values.image_id !== null ? Number(values.image_id) : null,
      clients: parseSubnets(values.clients),
      enabled: values.enabled,
      comment: values.comment,
    };
    const position = index ?? settings.exports.length;
    save.mutate(exportsWith(settings.exports, index, input), {
      onError: (error) => {
        const { fields, message } = exportSaveErrors(error, position);
        for (const [field, text] of Object.entries(fields)) form.setFieldError(field === 'image_id' ? 'image_id' : field, text);
        setFormError(message);
      },
    });
  };

  const values = form.getValues();
  const imageOptions = images.map((image) => ({
    value: String(image.id),
    label: `${image.name}${image.mounted ? ' (mounted)' : ''}`,
    disabled: image.state !== 'ready',
  }));
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit export ${editing.path}` : 'New NFS export'}
      size="lg"
      onSubmit={form.onSubmit(submit)}
      error={formError}
      submitLabel={editing ? 'Save export' : 'Add export'}
      pending={save.isPending}
    >
      <TextInput label="Export path" description="What clients mount: server:/path" placeholder="/live" required {...form.getInputProps('path')} />
      <SegmentedControl
        aria-label="Source"
        data={[
          { value: 'folder', label: 'A folder' },
          { value: 'image', label: 'An OS image' },
        ]}
        {...form.getInputProps('source')}
      />
      {values.source === 'folder' ? (
        <Stack gap="xs">
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="Exported folder"
              description="Inside an allowed root (Settings → served roots)"
              placeholder="/srv/live"
              style={{ flex: 1 }}
              {...form.getInputProps('folder')}
              onChange={(event) => {
                form.setFieldValue('folder', event.currentTarget.value);
                setCheck(null);
              }}
            />
            <Button variant="default" onClick={() => setBrowsing((open) => !open)}>
              {browsing ? 'Hide browser' : 'Browse…'}
            </Button>
            <Button variant="default" loading={validate.isPending} disabled={!values.folder.trim()} onClick={() => validate.mutate(values.folder.trim())}>
              Validate
            </Button>
          </Group>
          {browsing && (
            <FsBrowser
              mode="directory"
              value={values.folder || null}
              initialPath={values.folder || null}
              height={220}
              source={{ key: 'nfs', browse: (api, path) => api.nfs.browsePath(path) }}
              onChange={(path) => {
                form.setFieldValue('folder', path ?? '');
                setCheck(null);
              }}
            />
          )}
          {check && check.path === values.folder.trim() && <PathCheckResult check={check} />}
        </Stack>
      ) : (
        <Select
          label="OS image"
          description="Served straight from its ISO (no extraction needed)"
          placeholder={images.length === 0 ? 'No OS images yet' : 'Choose an image'}
          data={imageOptions}
          searchable
          {...form.getInputProps('image_id')}
        />
      )}
      <TextInput label="Allowed clients" description="Subnets, separated by commas (192.168.50.0/24, fd00::/64); others are refused" required {...form.getInputProps('clients')} />
      <Switch label="Enabled" description="Off keeps the export stored but refuses it" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      <TextInput label="Comment" maxLength={200} {...form.getInputProps('comment')} />
    </FormDialog>
  );
}
