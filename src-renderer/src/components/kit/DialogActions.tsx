import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DialogActionsProps {
  onCancel: () => void;
  /** "Cancel" unless the dialog has nothing to abandon ("Close"). */
  cancelLabel?: string;
  confirmLabel: ReactNode;
  /** Shows the confirm button busy while the request runs. */
  pending: boolean;
  confirmDisabled?: boolean;
  /** Without it the confirm button submits the surrounding form. */
  onConfirm?: () => void;
}

/** A dialog's footer: cancel on the left, the one action on the right. */
export function DialogActions({ onCancel, cancelLabel = 'Cancel', confirmLabel, pending, confirmDisabled, onConfirm }: DialogActionsProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      {onConfirm ? (
        <Button loading={pending} disabled={confirmDisabled} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      ) : (
        <Button type="submit" loading={pending} disabled={confirmDisabled}>
          {confirmLabel}
        </Button>
      )}
    </Group>
  );
}
