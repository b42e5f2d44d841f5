import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConfirm } from './ConfirmDialog.js';

/** A small row button with a label that names its row for screen readers ("Edit web01"). */
export function RowButton({ label, children, onClick, color, disabled }: { label: string; children: ReactNode; onClick: () => void; color?: string; disabled?: boolean }) {
  return (
    <Button size="compact-xs" variant={color ? 'light' : 'default'} color={color} aria-label={label} onClick={onClick} disabled={disabled}>
      {children}
    </Button>
  );
}

/** A row's Delete button: asks first (what will be deleted, and what follows), then runs `onConfirm`. */
export function DeleteButton({
  what,
  message,
  onConfirm,
  label = 'Delete',
  disabled,
}: {
  what: string;
  message: ReactNode;
  onConfirm: () => void;
  label?: string;
  disabled?: boolean;
}) {
  const confirm = useConfirm();
  return (
    <RowButton
      label={`${label} ${what}`}
      color="red"
      disabled={disabled}
      onClick={async () => {
        if (await confirm({ title: `${label} ${what}?`, message, confirmLabel: label })) onConfirm();
      }}
    >
      {label}
    </RowButton>
  );
}
