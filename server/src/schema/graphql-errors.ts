import { GraphQLError } from 'graphql';
import { AppError } from '../core/errors.js';

/** A domain error as a GraphQL error: `extensions.code`, plus the field and retry hint when there are any. */
export function toGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: {
      code: error.code,
      ...(error.field ? { field: error.field } : {}),
      ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}),
    },
  });
}
