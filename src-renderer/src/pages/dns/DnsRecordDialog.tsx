import {
  DEFAULT_TTL,
  DNS_RECORD_TYPES,
  DnsRecordInputSchema,
  MAX_PRIORITY,
  MAX_TTL,
  MAX_TXT_BYTES,
  SERVER_IP_MARKER,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordType,
} from '@contracts/dns';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { isHostname, isIPv4, isIPv6, isNetworkCidr } from '../../validators.js';

interface FormValues {
  name: string;
  type: DnsRecordType;
  value: string;
  ttl: number | string;
  priority: number | string;
  subnet: string;
  enabled: boolean;
  comment: string;
}

/** The API's own field schemas (the contract): the form checks TTL and priority with the server's rule. */
const RecordField = DnsRecordInputSchema.properties;

/** What the value field is called and expects, per record type. */
export const VALUE_FIELD: Record<DnsRecordType, { label: string; placeholder: string; description: string }> = {
  A: { label: 'IPv4 address', placeholder: `192.168.1.10 or ${SERVER_IP_MARKER}`, description: `${SERVER_IP_MARKER} answers each client with our address on its subnet` },
  AAAA: { label: 'IPv6 address', placeholder: '2001:db8::10', description: '' },
  CNAME: { label: 'Target name', placeholder: 'pxe or www.example.com.', description: 'A single label is taken in the local domain' },
  MX: { label: 'Mail exchange', placeholder: 'mail', description: 'A single label is taken in the local domain' },
  TXT: { label: 'Text', placeholder: 'v=spf1 -all', description: `Up to ${MAX_TXT_BYTES} bytes` },
};

/** The client-side check of a value for its type (the server checks again). */
export function recordValueProblem(type: DnsRecordType, value: string): string | null {
  const text = value.trim();
  if (text === '') return `Enter the ${VALUE_FIELD[type].label.toLowerCase()}`;
  if (type === 'A') return text === SERVER_IP_MARKER || isIPv4(text) ? null : `An IPv4 address (a.b.c.d) or ${SERVER_IP_MARKER}`;
  if (type === 'AAAA') return isIPv6(text) ? null : 'An IPv6 address';
  if (type === 'CNAME' || type === 'MX') return text === '@' || isHostname(text) ? null : 'A host name (letters, digits, hyphens; dots between labels)';
  return new TextEncoder().encode(text).length > MAX_TXT_BYTES ? `At most ${MAX_TXT_BYTES} bytes` : null;
}

function initialValues(record: DnsRecord | null): FormValues {
  return {
    name: record?.name ?? '',
    type: record?.type ?? 'A',
    value: record?.value ?? '',
    ttl: record?.ttl ?? DEFAULT_TTL,
    priority: record?.priority ?? (record ? '' : 10),
    subnet: record?.subnet ?? '',
    enabled: record?.enabled ?? true,
    comment: record?.comment ?? '',
  };
}

/** The request body: only the type's own fields (the API refuses a priority on anything but MX). */
export function recordBody(values: FormValues): DnsRecordInput {
  return {
    name: values.name.trim(),
    type: values.type,
    value: values.value.trim(),
    ttl: Number(values.ttl),
    priority: values.type === 'MX' ? Number(values.priority) : null,
    subnet: values.subnet.trim() === '' ? null : values.subnet.trim(),
    enabled: values.enabled,
    comment: values.comment,
  };
}

/** Create or edit a DNS record; the fields follow the type (MX priority, a textarea for TXT). */
export function DnsRecordDialog({ opened, record, onClose, onSaved }: { opened: boolean; record: DnsRecord | null; onClose: () => void; onSaved?: (saved: DnsRecord) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: initialValues(record),
    validate: {
      name: (value) => (value.trim() === '' ? 'Enter a name (@ for the domain itself)' : null),
      value: (value, values) => recordValueProblem(values.type, value),
      ttl: (value) => (Value.Check(RecordField.ttl, Number(value)) ? null : `0–${MAX_TTL} seconds`),
      priority: (value, values) => (values.type !== 'MX' || (value !== '' && Value.Check(RecordField.priority, Number(value))) ? null : `MX needs a priority 0–${MAX_PRIORITY}`),
      subnet: (value) => (value.trim() === '' || isNetworkCidr(value) ? null : 'A subnet in CIDR form with host bits zero, e.g. 192.168.10.0/24'),
    },
  });

  useEffect(() => {
    if (opened) {
      form.setValues(initialValues(record));
      form.resetDirty(initialValues(record));
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, record]);

  const save = useApiAction(
    (api, body: DnsRecordInput) => (record ? api.dns.records.update(record.id, body) : api.dns.records.create(body)),
    { invalidate: [keys.dnsRecords], notifyErrors: false, success: (saved) => `Record ${saved.name} ${saved.type} ${record ? 'saved' : 'created'}.` },
  );

  const type = form.getValues().type;
  const valueField = VALUE_FIELD[type];
  const fields = ['name', 'type', 'value', 'ttl', 'priority', 'subnet', 'enabled', 'comment'];

  return (
    <Modal opened={opened} onClose={onClose} title={record ? `Edit record ${record.name} ${record.type}` : 'New DNS record'} size="lg">
      <form
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          save.mutate(recordBody(values), {
            onSuccess: (saved) => {
              onClose();
              onSaved?.(saved);
            },
            onError: (error) => setFormError(applyServerErrors(form, error, { fields })) });
        })}
      >
        <Stack gap="sm">
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <Group grow align="flex-start">
            <Select label="Type" data={[...DNS_RECORD_TYPES]} allowDeselect={false} {...form.getInputProps('type')} />
            <TextInput label="Name" placeholder="pxe, @ or www.example.com." description="@ is the local domain; a name ending in . is absolute" data-autofocus {...form.getInputProps('name')} />
          </Group>
          {type === 'TXT' ? (
            <Textarea label={valueField.label} placeholder={valueField.placeholder} description={valueField.description} autosize minRows={2} maxRows={8} {...form.getInputProps('value')} />
          ) : (
            <TextInput label={valueField.label} placeholder={valueField.placeholder} description={valueField.description || undefined} {...form.getInputProps('value')} />
          )}
          <Group grow align="flex-start">
            {type === 'MX' && <NumberInput label="Priority" description="Lower is preferred" min={0} max={MAX_PRIORITY} allowDecimal={false} {...form.getInputProps('priority')} />}
            <NumberInput label="TTL (seconds)" min={0} max={MAX_TTL} allowDecimal={false} {...form.getInputProps('ttl')} />
            <TextInput label="Only for clients in subnet" placeholder="192.168.10.0/24" description="Empty: every client" {...form.getInputProps('subnet')} />
          </Group>
          <TextInput label="Comment" {...form.getInputProps('comment')} />
          <Switch label="Enabled (answered)" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {record ? 'Save record' : 'Create record'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
