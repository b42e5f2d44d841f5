import type { ReactNode } from 'react';
import { useConfirm } from '../ConfirmDialog.js';
import { RowButton } from '../RowActions.js';

export interface VersionRowActionsProps {
  version: number;
  /** The owner's current version: it cannot be rolled back to. */
  current: number;
  canEdit: boolean;
  rollbackPending: boolean;
  /** What the confirmation says happens (e.g. "Version 3's content becomes current as a new version."). */
  rollbackMessage: ReactNode;
  onView(): void;
  onRollback(): void;
  viewText?: string;
}

/** A version row's actions in a versions table: view (and compare), and roll back after a confirmation. */
export function VersionRowActions({ version, current, canEdit, rollbackPending, rollbackMessage, onView, onRollback, viewText = 'View and compare' }: VersionRowActionsProps) {
  const confirm = useConfirm();
  return (
    <>
      <RowButton label={`View version ${version}`} onClick={onView}>
        {viewText}
      </RowButton>
      {canEdit && version !== current && (
        <RowButton
          label={`Roll back to version ${version}`}
          color="orange"
          disabled={rollbackPending}
          onClick={async () => {
            if (await confirm({ title: `Roll back to version ${version}?`, message: rollbackMessage, confirmLabel: 'Roll back' })) onRollback();
          }}
        >
          Roll back
        </RowButton>
      )}
    </>
  );
}
