import { Alert } from '@mantine/core';

/** The message above a form when a save failed in a way no single field explains; nothing when null. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}
