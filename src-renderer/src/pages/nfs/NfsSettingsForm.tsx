import { NFS_SETTING_LIMITS, PORTMAPPER_MODES, type NfsSettingsUpdate, type NfsSettingsView, type PortmapperMode } from '@contracts/nfs';
import { Group, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useCan } from '../../app-state.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormError, SettingsSaveBar } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { parseSubnets, PORTMAPPER_HELP, subnetsProblem } from './nfs-model.js';

interface FormValues {
  enabled: boolean;
  nfs_port: number | string;
  mount_port: number | string;
  portmapper: PortmapperMode;
  udp: boolean;
  export_mounted_images: boolean;
  image_clients: string;
}

const FIELDS = ['enabled', 'nfs_port', 'mount_port', 'portmapper', 'udp', 'export_mounted_images', 'image_clients'] as const;

function toForm(settings: NfsSettingsView): FormValues {
  return {
    enabled: settings.enabled,
    nfs_port: settings.nfs_port,
    mount_port: settings.mount_port,
    portmapper: settings.portmapper,
    udp: settings.udp,
    export_mounted_images: settings.export_mounted_images,
    // Left empty while none are set: the list shown would otherwise be saved back and stop following the interfaces.
    image_clients: settings.image_clients_default ? '' : settings.image_clients.join(', '),
  };
}

const portProblem = (value: number | string) => {
  const port = Number(value);
  return Number.isInteger(port) && port >= NFS_SETTING_LIMITS.port.min && port <= NFS_SETTING_LIMITS.port.max ? null : 'A port 1–65535';
};

/** The service settings of PUT /services/nfs (everything but the exports list). */
export function NfsSettingsForm({ settings }: { settings: NfsSettingsView }) {
  const canEdit = useCan('operator');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: toForm(settings),
    validate: {
      nfs_port: portProblem,
      mount_port: portProblem,
      image_clients: (value) => subnetsProblem(value, false),
    },
    validateInputOnBlur: true,
  });
  /** Shows `shown` as the saved state: the fields, and what "edited" is judged against. */
  const showSaved = (shown: NfsSettingsView) => {
    const values = toForm(shown);
    form.setInitialValues(values);
    form.setValues(values);
  };
  // A save elsewhere replaces what is shown unless the user is editing.
  useEffect(() => {
    if (!form.isDirty()) showSaved(settings);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);

  const save = useApiAction((api, body: NfsSettingsUpdate) => api.nfs.settings.update(body), {
    invalidate: [keys.nfs, keys.services, keys.status],
    notifyErrors: false,
    success: 'NFS settings saved.',
    onSuccess: showSaved,
  });

  const submit = (values: FormValues) => {
    setFormError(null);
    const clients = parseSubnets(values.image_clients);
    const body: NfsSettingsUpdate = {
      // `enabled` only when the switch changed: sent unchanged it would start a server the operator stopped by hand.
      ...(form.isDirty('enabled') ? { enabled: values.enabled } : {}),
      nfs_port: Number(values.nfs_port),
      mount_port: Number(values.mount_port),
      portmapper: values.portmapper,
      udp: values.udp,
      export_mounted_images: values.export_mounted_images,
      // Only when edited; emptied means back to the served interfaces (null), not "no client".
      ...(form.isDirty('image_clients') ? { image_clients: clients.length === 0 ? null : clients } : {}),
    };
    save.mutate(body, {
      onError: (error) =>
        setFormError(
          applyServerErrors(form, error, {
            // image_clients.2 → the one text field of the list.
            map: (path) => {
              const top = path.split('.')[0] ?? '';
              return (FIELDS as readonly string[]).includes(top) ? top : null;
            },
          }),
        ),
    });
  };

  const mode = form.getValues().portmapper;
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="NFS settings">
      <Stack gap="sm">
        <FormError message={formError} />
        <Switch
          label="NFS server enabled"
          description="Off stops the server and its auto-start; on starts it."
          disabled={!canEdit}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Group grow align="flex-start">
          <NumberInput label="NFS port" description="NFS v3 (MOUNT is served here too); default 2049" min={1} max={65535} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('nfs_port')} />
          <NumberInput label="MOUNT port" description="MOUNT v3; default 20048" min={1} max={65535} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('mount_port')} />
        </Group>
        <Select
          label="Portmapper"
          description={PORTMAPPER_HELP[mode]}
          data={PORTMAPPER_MODES.map((value) => ({ value, label: value }))}
          allowDeselect={false}
          disabled={!canEdit}
          {...form.getInputProps('portmapper')}
        />
        <Switch label="Serve over UDP too" description="TCP is always served." disabled={!canEdit} {...form.getInputProps('udp', { type: 'checkbox' })} />
        <Switch
          label="Export mounted OS images"
          description="Every mounted image at /iso/<slug>, read straight from its ISO."
          disabled={!canEdit}
          {...form.getInputProps('export_mounted_images', { type: 'checkbox' })}
        />
        <TextInput
          label="Clients allowed to mount the images"
          description={`Subnets, separated by commas (192.168.50.0/24, fd00::/64); empty: the subnets of the served interfaces${
            settings.image_clients_default ? `, now ${settings.image_clients.length > 0 ? settings.image_clients.join(', ') : 'none (no served interface has a subnet)'}` : ''
          }.`}
          placeholder={settings.image_clients_default ? 'the served interfaces\' subnets' : undefined}
          disabled={!canEdit || !form.getValues().export_mounted_images}
          {...form.getInputProps('image_clients')}
        />
        {!canEdit && (
          <Text size="xs" c="dimmed">
            Operators change these settings; ports and exports need an admin.
          </Text>
        )}
        {canEdit && <SettingsSaveBar dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save NFS settings" />}
      </Stack>
    </form>
  );
}
