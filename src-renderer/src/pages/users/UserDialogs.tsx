import { CreateUserBody, PASSWORD_MIN_LENGTH, ROLES, type CreateUserRequest, type Role, type UpdateUserRequest, type UserData as User } from '@contracts/auth';
import { PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { TOGGLE_PROPS } from '../../components/password-toggle.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

export const ROLE_OPTIONS = ROLES.map((role) => ({
  value: role,
  label: role === 'viewer' ? 'Viewer (read only)' : role === 'operator' ? 'Operator (everything but users, tokens, security)' : 'Admin',
}));

const MIN_PASSWORD = PASSWORD_MIN_LENGTH;

/** POST /users. */
export function CreateUserDialog({ opened, onClose, onSaved }: { opened: boolean; onClose: () => void; onSaved?: (user: User) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { username: '', password: '', role: 'viewer' as Role },
    validate: {
      username: (value) => (Value.Check(CreateUserBody.properties.username, value.trim()) ? null : '1–64 characters: letters, digits . _ -'),
      password: (value) => (Value.Check(CreateUserBody.properties.password, value) ? null : `At least ${MIN_PASSWORD} characters`),
    },
  });
  useEffect(() => {
    if (opened) {
      form.reset();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  const create = useApiAction((api, body: CreateUserRequest) => api.auth.users.create(body), {
    invalidate: [keys.users],
    notifyErrors: false,
    success: (user) => `User ${user.username} created.`,
  });
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New user"
      error={formError}
      submitLabel="Create user"
      pending={create.isPending}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        create.mutate(
          { username: values.username.trim(), password: values.password, role: values.role },
          {
            onSuccess: (user) => {
              onClose();
              onSaved?.(user);
            },
            onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['username', 'password', 'role'] })),
          },
        );
      })}
    >
      <TextInput label="Username" autoComplete="off" data-autofocus {...form.getInputProps('username')} />
      <PasswordInput label="Password" visibilityToggleButtonProps={TOGGLE_PROPS} autoComplete="new-password" description={`At least ${MIN_PASSWORD} characters`} {...form.getInputProps('password')} />
      <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} {...form.getInputProps('role')} />
    </FormDialog>
  );
}

/** PUT /users/{id}: role, disabled, or a new password (the user's sessions end). */
export function EditUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { role: (user?.role ?? 'viewer') as Role, disabled: user?.disabled ?? false, password: '' },
    validate: { password: (value) => (value === '' || Value.Check(CreateUserBody.properties.password, value) ? null : `At least ${MIN_PASSWORD} characters, or empty to keep it`) },
  });
  useEffect(() => {
    if (user) {
      form.setValues({ role: user.role, disabled: user.disabled, password: '' });
      form.resetDirty({ role: user.role, disabled: user.disabled, password: '' });
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user]);
  const save = useApiAction((api, body: UpdateUserRequest) => api.auth.users.update(user?.id ?? 0, body), {
    invalidate: [keys.users],
    notifyErrors: false,
    success: (saved) => `User ${saved.username} saved.`,
  });
  return (
    <FormDialog
      opened={user !== null}
      onClose={onClose}
      title={user ? `Edit ${user.username}` : ''}
      error={formError}
      submitLabel="Save user"
      pending={save.isPending}
      onSubmit={form.onSubmit((values) => {
        if (!user) return;
        setFormError(null);
        const body: UpdateUserRequest = {};
        if (values.role !== user.role) body.role = values.role;
        if (values.disabled !== user.disabled) body.disabled = values.disabled;
        if (values.password !== '') body.password = values.password;
        if (Object.keys(body).length === 0) return onClose();
        save.mutate(body, { onSuccess: onClose, onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['role', 'disabled', 'password'] })) });
      })}
    >
      <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} {...form.getInputProps('role')} />
      <Switch label="Disabled (cannot log in; sessions end)" {...form.getInputProps('disabled', { type: 'checkbox' })} />
      <PasswordInput label="New password" visibilityToggleButtonProps={TOGGLE_PROPS} autoComplete="new-password" placeholder="Unchanged" description="Setting one ends the user's sessions" {...form.getInputProps('password')} />
    </FormDialog>
  );
}
