import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SaveButtonsProps {
  /** Whether there is anything to discard or save. */
  dirty: boolean;
  saving: boolean;
  onDiscard: () => void;
  saveLabel: ReactNode;
  /** Without it the save button submits the surrounding form. */
  onSave?: () => void;
  saveDisabled?: boolean;
}

/** "Discard changes" and the save button of a settings form or editor (no wrapper: the caller lays them out). */
export function SaveButtons({ dirty, saving, onDiscard, saveLabel, onSave, saveDisabled }: SaveButtonsProps) {
  return (
    <>
      <Button variant="default" disabled={!dirty || saving} onClick={onDiscard}>
        Discard changes
      </Button>
      {onSave ? (
        <Button loading={saving} disabled={saveDisabled} onClick={onSave}>
          {saveLabel}
        </Button>
      ) : (
        <Button type="submit" loading={saving} disabled={saveDisabled}>
          {saveLabel}
        </Button>
      )}
    </>
  );
}

/** The save bar under a settings form; `sticky` keeps it in view at the bottom of a long form. */
export function SettingsSaveBar({ sticky = false, ...buttons }: SaveButtonsProps & { sticky?: boolean }) {
  return (
    <Group justify="flex-end" className={sticky ? 'sticky-actions' : undefined}>
      <SaveButtons {...buttons} />
    </Group>
  );
}
