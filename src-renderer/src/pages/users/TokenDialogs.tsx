import { TOKEN_NAME_MAX_LENGTH, type CreatedTokenData as CreatedApiToken, type CreateTokenRequest, type Role } from '@contracts/auth';
import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { localToIso } from '../../components/DateRangeFilter.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ROLE_OPTIONS } from './UserDialogs.js';

/** POST /tokens, then the secret, shown once with a copy button. */
export function CreateTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const form = useForm({
    initialValues: { name: '', role: 'viewer' as Role, expires_at: '' },
    validate: {
      name: (value) => (value.trim() === '' ? 'Name the token (e.g. what uses it)' : value.length > TOKEN_NAME_MAX_LENGTH ? `At most ${TOKEN_NAME_MAX_LENGTH} characters` : null),
      expires_at: (value) => (value === '' || Date.parse(value) > Date.now() ? null : 'A time in the future, or empty for never'),
    },
  });
  useEffect(() => {
    if (opened) {
      form.reset();
      setFormError(null);
      setCreated(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  const create = useApiAction((api, body: CreateTokenRequest) => api.auth.tokens.create(body), { invalidate: [keys.tokens], notifyErrors: false });

  if (created) {
    return (
      <Modal opened={opened} onClose={onClose} title={`Token ${created.name} created`} closeOnClickOutside={false}>
        <Stack gap="sm">
          <Alert color="orange" title="Copy it now">
            This is the only time the token is shown. Send it as <Code>Authorization: Bearer &lt;token&gt;</Code>.
          </Alert>
          <Code block aria-label="The new API token" className="pre-wrap">
            {created.token}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={created.token}>
              {({ copied, copy }) => (
                <Button variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy token'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New API token"
      error={formError}
      submitLabel="Create token"
      pending={create.isPending}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        create.mutate(
          { name: values.name.trim(), role: values.role, ...(values.expires_at !== '' ? { expires_at: localToIso(values.expires_at) } : {}) },
          { onSuccess: setCreated, onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['name', 'role', 'expires_at'] })) },
        );
      })}
    >
      <TextInput label="Name" placeholder="prometheus, ci-pipeline…" data-autofocus {...form.getInputProps('name')} />
      <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} {...form.getInputProps('role')} />
      <TextInput type="datetime-local" label="Expires (your local time)" description="Empty: never" {...form.getInputProps('expires_at')} />
      <Text size="xs" c="dimmed">
        The secret is shown once after creation.
      </Text>
    </FormDialog>
  );
}
