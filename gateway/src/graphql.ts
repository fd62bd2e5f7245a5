import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, GraphQLFormattedError, GraphQLSchema, ValidationContext } from 'graphql';
import type { Logger } from 'pino';
import type { RequestContext } from '../../server/src/core/context.js';
import { AppError, type ErrorCode } from '../../server/src/core/errors.js';
import { HTTP_STATUS } from './http-errors.js';

/** Operations deeper than this are refused before they run. */
export const MAX_QUERY_DEPTH = 15;
/**
 * The cost bound of one operation (graphql-armor's estimate: 2 per object field, 1 per scalar,
 * multiplied by depth). A full page of 100 products with their nested images stays well under it.
 */
export const MAX_QUERY_COST = 20_000;

/** Codes that also set the HTTP status of a GraphQL answer, so that caches and clients can see them. */
const STATUS_CODES: ErrorCode[] = ['UNDER_CONSTRUCTION', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'];

/** Refused operations answer as ordinary validation errors (HTTP 400, GRAPHQL_VALIDATION_FAILED). */
const reportAsValidationError = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

const httpStatusPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors }) {
        const hit = errors?.find((e) => STATUS_CODES.includes(e.extensions?.code as ErrorCode));
        if (!hit) return;
        response.http.status = HTTP_STATUS[hit.extensions.code as ErrorCode];
        const retryAfter = hit.extensions.retryAfter;
        if (typeof retryAfter === 'number') response.http.headers.set('retry-after', String(retryAfter));
      },
    };
  },
};

export function createApolloServer(schema: GraphQLSchema, options: { introspection: boolean; log: Logger }): ApolloServer<RequestContext> {
  return new ApolloServer<RequestContext>({
    schema,
    introspection: options.introspection,
    csrfPrevention: true,
    // The process owner stops the server in order (HTTP, then Apollo, then the database).
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    validationRules: [maxDepthRule({ n: MAX_QUERY_DEPTH, ...reportAsValidationError }), costLimitRule({ maxCost: MAX_QUERY_COST, ...reportAsValidationError })],
    plugins: [ApolloServerPluginLandingPageDisabled(), httpStatusPlugin],
    formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
      const original = unwrapResolverError(error);
      if (original instanceof AppError) return formatted;
      const code = formatted.extensions?.code;
      if (code && code !== 'INTERNAL_SERVER_ERROR') return formatted; // validation, parse and bad-request errors
      options.log.error({ err: original }, 'unhandled GraphQL error');
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' }, path: formatted.path, locations: formatted.locations };
    },
  });
}
