import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Role } from '@contracts/auth';
import { useCan, useRole } from '../app-state.js';

/** Renders the page for users with at least `role`; others learn which role it needs (instead of a 403 from every request). */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const allowed = useCan(role);
  const current = useRole();
  if (allowed) return <>{children}</>;
  return (
    <Alert color="yellow" title="Not available with your role" role="alert">
      This page needs the {role} role; you are signed in as {current ?? 'nobody'}.
    </Alert>
  );
}
