import { notifications } from '@mantine/notifications';
import { describeError, isApiError } from '../api/api-error.js';

export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal', autoClose: 4000 });
}

/** Something that did not stop an action but will bite later (a profile's missing boot file). */
export function notifyWarnings(title: string, warnings: readonly string[] | undefined): void {
  // undefined: an answer from a server that sends no warnings.
  if (!warnings || warnings.length === 0) return;
  notifications.show({ title, message: warnings.join('\n'), color: 'orange', autoClose: 15_000 });
}

/** A failed action: the server's message (it names the field or the cause), with a title saying what failed. */
export function notifyError(error: unknown, title = 'The action failed'): void {
  const detail = isApiError(error) && error.details.length > 1 ? ` (${error.details.map((d) => `${d.field}: ${d.message}`).join('; ')})` : '';
  notifications.show({ title, message: `${describeError(error)}${detail}`, color: 'red', autoClose: 10_000 });
}
