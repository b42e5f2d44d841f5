import { AppError } from '../core/errors.js';

/**
 * The 400 for a file the ISO reader refused, naming the client's file and
 * the reader's reason only: the reader's own message names the file on disk
 * (a partial upload's path), which the API does not show.
 */
export function unreadableImage(readerError: AppError, fileName: string, field: string): AppError {
  const reason = readerError.details?.[0]?.message ?? readerError.message;
  return new AppError('VALIDATION_FAILED', `${field}: ${fileName} is not a readable ISO image: ${reason}`, { details: [{ field, message: reason }], cause: readerError });
}
