import { CombinedGraphQLErrors } from '@apollo/client/errors';

/** The server's message for a failed operation, or the fallback when it said nothing useful. */
export function errorMessage(error: unknown, fallback: string): string {
  if (CombinedGraphQLErrors.is(error) && error.errors[0]?.message) return error.errors[0].message;
  return fallback;
}

/** The error code (`extensions.code`) of a failed operation, if the server gave one. */
export function errorCode(error: unknown): string | undefined {
  return CombinedGraphQLErrors.is(error) ? (error.errors[0]?.extensions?.code as string | undefined) : undefined;
}

/** The input field a BAD_USER_INPUT or CONFLICT error names (`extensions.field`), if any. */
export function errorField(error: unknown): string | undefined {
  return CombinedGraphQLErrors.is(error) ? (error.errors[0]?.extensions?.field as string | undefined) : undefined;
}
