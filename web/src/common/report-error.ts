import { errorCode, errorMessage } from '../apollo/errors';
import { snackbar } from './toaster';

/** Codes whose message tells the admin something to act on (what clashed, what is missing). */
const EXPLAINED = new Set(['CONFLICT', 'BAD_USER_INPUT', 'NOT_FOUND', 'FORBIDDEN']);

/**
 * The admin screens' failure snackbar: 'Error {action}: {message}' in the error colour, with the
 * server's reason under it when it gave one worth reading.
 */
export function reportError(action: string, message: string, error?: unknown): void {
  console.error(`Error ${action}:`, error);
  const code = errorCode(error);
  const reason = code && EXPLAINED.has(code) ? errorMessage(error, '') : '';
  void snackbar(`Error ${action}: ${message}`, 'danger', reason || undefined);
}
