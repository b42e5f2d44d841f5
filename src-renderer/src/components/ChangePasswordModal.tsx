import { PASSWORD_MIN_LENGTH } from '@contracts/auth';
import { PasswordInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useApiAction } from '../query/api-hooks.js';
import { keys } from '../query/keys.js';
import { applyServerErrors } from './form-errors.js';
import { FormDialog } from './kit/index.js';
import { TOGGLE_PROPS } from './password-toggle.js';

/** The user menu's "Change password": current and new password (twice); the user's other sessions end. */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeat: '' },
    validate: {
      current_password: (value) => (value === '' ? 'Enter your current password' : null),
      new_password: (value) => (value.length < PASSWORD_MIN_LENGTH ? `Too short: use at least ${PASSWORD_MIN_LENGTH} characters` : null),
      repeat: (value, values) => (value !== values.new_password ? 'The passwords differ' : null),
    },
  });
  const save = useApiAction((api, values: { current: string; next: string }) => api.auth.users.changeOwnPassword({ current_password: values.current, new_password: values.next }), {
    notifyErrors: false,
    // The first-run state's must_change_password may have just become false.
    invalidate: [keys.firstRun],
    success: 'Password changed. Your other sessions were ended.',
  });

  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };

  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title="Change password"
      gap="md"
      error={formError}
      submitLabel="Change password"
      pending={save.isPending}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        save.mutate(
          { current: values.current_password, next: values.new_password },
          {
            onSuccess: close,
            onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['current_password', 'new_password'] })),
          },
        );
      })}
    >
      <PasswordInput visibilityToggleButtonProps={TOGGLE_PROPS} label="Current password" autoComplete="current-password" {...form.getInputProps('current_password')} />
      <PasswordInput visibilityToggleButtonProps={TOGGLE_PROPS} label="New password" autoComplete="new-password" description={`At least ${PASSWORD_MIN_LENGTH} characters`} {...form.getInputProps('new_password')} />
      <PasswordInput visibilityToggleButtonProps={TOGGLE_PROPS} label="Repeat the new password" autoComplete="new-password" {...form.getInputProps('repeat')} />
    </FormDialog>
  );
}
