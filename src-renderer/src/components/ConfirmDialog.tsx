import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  /** The confirming button's label: say what happens ("Delete record"). */
  confirmLabel: string;
  /** Red confirm button for what cannot be undone (default true). */
  danger?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/**
 * One confirmation dialog for the whole app: `await confirm({...})` resolves
 * true when the user confirms, false on cancel, Escape or closing.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setOptions(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const finish = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOptions(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Modal opened={options !== null} onClose={() => finish(false)} title={options?.title} centered>
        {options && (
          <Stack>
            {typeof options.message === 'string' ? <Text>{options.message}</Text> : options.message}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => finish(false)}>
                Cancel
              </Button>
              <Button color={options.danger === false ? undefined : 'red'} onClick={() => finish(true)} data-autofocus>
                {options.confirmLabel}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm outside ConfirmProvider');
  return confirm;
}
