import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../app-state.js';

/** Renders its children for a signed-in user; otherwise the login page (coming back here afterwards). */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useSession((state) => state.status);
  const checkError = useSession((state) => state.checkError);
  const check = useSession((state) => state.check);
  const location = useLocation();

  if (status === 'checking') {
    return (
      <Center h="100vh" role="status">
        <Stack align="center" gap="xs">
          <Loader />
          <Text c="dimmed">Checking session…</Text>
        </Stack>
      </Center>
    );
  }
  if (status === 'error') {
    return (
      <Center h="100vh">
        <Stack align="center" role="alert">
          <Text>Cannot reach the Bootwright server: {checkError}</Text>
          <Button onClick={() => void check()}>Retry</Button>
        </Stack>
      </Center>
    );
  }
  if (status === 'anonymous') {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
