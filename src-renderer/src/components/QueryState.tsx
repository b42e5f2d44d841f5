import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../api/api-error.js';

/** A spinner with a spoken label (role=status) while something loads. */
export function Loading({ label }: { label: string }) {
  return (
    <Group gap="xs" role="status" py="md">
      <Loader size="sm" />
      <Text c="dimmed">{label}</Text>
    </Group>
  );
}

/** A failed load with the reason and a Retry button. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" title={`Could not load ${what}`} role="alert">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{describeError(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Retry
          </Button>
        )}
      </Group>
    </Alert>
  );
}

/** Nothing to show yet, said plainly (and what to do about it, when there is something). */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" py="md" role="status">
      {children}
    </Text>
  );
}

/**
 * Loading, error or the data: the three states of every read, in one place.
 * `what` names the data in messages ("hosts" → "Loading hosts…").
 */
export function QueryState<T>({ query, what, children }: { query: UseQueryResult<T, Error>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading label={`Loading ${what}…`} />;
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
