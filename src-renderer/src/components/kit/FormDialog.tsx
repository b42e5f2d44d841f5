import { Modal, Stack, type ModalProps, type StackProps } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { DialogActions } from './DialogActions.js';
import { FormError } from './FormError.js';

export interface FormDialogProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: ModalProps['size'];
  /** Usually Mantine's `form.onSubmit(handler)`: validates, then calls the handler. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The message no field explains (see applyServerErrors); null hides it. */
  error: string | null;
  submitLabel: ReactNode;
  /** The save request is running: the submit button shows it. */
  pending: boolean;
  /** Space between the fields ("sm" unless the dialog wants more). */
  gap?: StackProps['gap'];
  children: ReactNode;
}

/** A modal form: title, the error no field explains, the fields, then Cancel and the submit button. */
export function FormDialog({ opened, onClose, title, size, onSubmit, error, submitLabel, pending, gap = 'sm', children }: FormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size}>
      <form onSubmit={onSubmit}>
        <Stack gap={gap}>
          <FormError message={error} />
          {children}
          <DialogActions onCancel={onClose} confirmLabel={submitLabel} pending={pending} />
        </Stack>
      </form>
    </Modal>
  );
}
