import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { AppError } from './errors.js';

/** Seconds a client is asked to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * PostgreSQL states that mean "not now" rather than "wrong": class 08 (connection exceptions),
 * 53300 (too many connections), 57014 (a statement cancelled by statement_timeout), 57P01-57P03
 * (shutting down, crash recovery, starting up).
 */
const UNAVAILABLE_STATES = /^(08...|53300|57014|57P0[1-3])$/;
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|connect ECONNREFUSED|the database system is (starting up|shutting down|in recovery mode)/i;

/** Whether an error (or any error it wraps) says that PostgreSQL cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const { name, code, message, sqlState } = current as { name?: string; code?: unknown; message?: unknown; sqlState?: unknown };
    if (name === 'ConnectionException') return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof sqlState === 'string' && UNAVAILABLE_STATES.test(sqlState)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

/** The answer to give while the database is away: 503 SERVICE_UNAVAILABLE with Retry-After. */
export function serviceUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The shop is briefly unavailable. Please try again in a few seconds.', { retryAfter: DATABASE_RETRY_AFTER_SECONDS });
}

/**
 * The one mapping of a unique-index clash: runs `work` (a flush, a transaction) and answers the clash
 * it meets with `onClash()`, a CONFLICT naming the field. The index decides when two writers race
 * past the service's own "is it free" check.
 */
export async function conflictOnUnique<T>(work: () => Promise<T>, onClash: () => AppError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw onClash();
    throw error;
  }
}
