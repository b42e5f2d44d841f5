import { notifications } from '@mantine/notifications';
import { describeError, isApiError } from '../api/api-error.js';

export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal', autoClose: 4000 });
}

/** A failed action: the server's message (it names the field or the cause), with a title saying what failed. */
export function notifyError(error: unknown, title = 'The action failed'): void {
  const detail = isApiError(error) && error.details.length > 1 ? ` (${error.details.map((d) => `${d.field}: ${d.message}`).join('; ')})` : '';
  notifications.show({ title, message: `${describeError(error)}${detail}`, color: 'red', autoClose: 10_000 });
}
