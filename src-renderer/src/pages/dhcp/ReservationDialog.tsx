import { Alert, Divider, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { CustomOptionSchema, type DhcpReservation as Reservation, type ReservationInput } from '@contracts/dhcp';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { isHostname, isIPv4, isMac } from '../../validators.js';
import { optionFromForm, optionToForm, optionValueProblem, type OptionForm } from './dhcp-form-model.js';
import { DhcpOptionsEditor } from './DhcpOptionsEditor.js';

interface FormValues {
  mac: string;
  ip: string;
  hostname: string;
  boot_file: string;
  options: OptionForm[];
}

const initial = (reservation: Reservation | null): FormValues => ({
  mac: reservation?.mac ?? '',
  ip: reservation?.ip ?? '',
  hostname: reservation?.hostname ?? '',
  boot_file: reservation?.boot_file ?? '',
  options: reservation?.options.map(optionToForm) ?? [],
});

/** Create or edit a DHCP reservation: a fixed address for a MAC, with its own boot file and options. */
export function ReservationDialog({ opened, reservation, onClose, onSaved }: { opened: boolean; reservation: Reservation | null; onClose: () => void; onSaved?: (saved: Reservation) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: initial(reservation),
    validate: {
      mac: (value) => (isMac(value) ? null : 'A MAC address, e.g. 52:54:00:12:34:56'),
      ip: (value) => (isIPv4(value) ? null : 'An IPv4 address inside a configured subnet'),
      hostname: (value) => (value.trim() === '' || isHostname(value) ? null : 'A host name (letters, digits, hyphens)'),
      options: {
        code: (value) => (value !== '' && Value.Check(CustomOptionSchema.properties.code, Number(value)) ? null : '1–254'),
        value: (value, values, path) => {
          const index = Number(path.split('.')[1]);
          const option = values.options[index];
          return option ? optionValueProblem({ ...option, value }) : null;
        },
      },
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(initial(reservation));
      form.resetDirty(initial(reservation));
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, reservation]);

  const save = useApiAction(
    (api, body: ReservationInput) => (reservation ? api.dhcp.reservations.update(reservation.id, body) : api.dhcp.reservations.create(body)),
    { invalidate: [keys.reservations, keys.leases], notifyErrors: false, success: (saved) => `Reservation ${saved.ip} for ${saved.mac} saved.` },
  );

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={reservation ? `Edit reservation ${reservation.ip}` : 'New reservation'}
      size="lg"
      error={formError}
      submitLabel={reservation ? 'Save reservation' : 'Create reservation'}
      pending={save.isPending}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        const body = {
          mac: values.mac.trim(),
          ip: values.ip.trim(),
          hostname: values.hostname.trim() === '' ? null : values.hostname.trim(),
          boot_file: values.boot_file.trim() === '' ? null : values.boot_file.trim(),
          options: values.options.map(optionFromForm),
        };
        save.mutate(body, {
          onSuccess: (saved) => {
            onClose();
            onSaved?.(saved);
          },
          onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['mac', 'ip', 'hostname', 'boot_file', 'options'] })) });
      })}
    >
      {reservation?.host_id !== null && reservation?.host_id !== undefined && (
        <Alert color="blue">This reservation belongs to host #{reservation.host_id}; changing the host's IP or MAC moves it.</Alert>
      )}
      <Group grow align="flex-start">
        <TextInput label="MAC address" placeholder="52:54:00:12:34:56" data-autofocus {...form.getInputProps('mac')} />
        <TextInput label="IP address" placeholder="192.168.50.20" {...form.getInputProps('ip')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Hostname (option 12)" placeholder="none" {...form.getInputProps('hostname')} />
        <TextInput label="Boot file" placeholder="from the architecture map" description="Overrides the first-stage boot file" {...form.getInputProps('boot_file')} />
      </Group>
      <Divider label="Custom options (override the subnet's)" labelPosition="left" />
      <DhcpOptionsEditor form={form} path="options" options={form.getValues().options} readOnly={false} owner="this reservation" />
    </FormDialog>
  );
}
