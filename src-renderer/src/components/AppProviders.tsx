import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppStateProvider, type AppState } from '../app-state.js';
import { colorSchemeManager, theme } from '../theme.js';
import { ConfirmProvider } from './ConfirmDialog.js';

/**
 * The providers every screen needs (the app and the component tests use the
 * same ones; tests pass env "test", which turns Mantine's transitions and
 * portals off).
 */
export function AppProviders({ state, children, env = 'default' }: { state: AppState; children: ReactNode; env?: 'default' | 'test' }) {
  return (
    <AppStateProvider value={state}>
      <QueryClientProvider client={state.queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager} env={env}>
          {/* Top centre: the corners hold the page actions (top right) and the form buttons (bottom right). */}
          <Notifications position="top-center" limit={4} />
          <ConfirmProvider>{children}</ConfirmProvider>
        </MantineProvider>
      </QueryClientProvider>
    </AppStateProvider>
  );
}
