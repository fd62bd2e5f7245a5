import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, Kind, type ASTVisitor, type GraphQLFormattedError, type GraphQLSchema, type SelectionSetNode, type ValidationContext } from 'graphql';
import { isDatabaseUnavailable, serviceUnavailable } from '../../server/src/core/db-errors.js';
import type { Logger } from 'pino';
import type { RequestContext } from '../../server/src/core/context.js';
import { AppError, type ErrorCode } from '../../server/src/core/errors.js';
import { DEFAULT_LOCALE } from '../../server/src/rules/locales.js';
import { HTTP_STATUS } from './http-errors.js';
import { refuseNulInOperations } from './input-guard.js';

/** Operations deeper than this are refused before they run. */
export const MAX_QUERY_DEPTH = 15;
/**
 * The cost bound of one operation (graphql-armor's estimate: 2 per object field, 1 per scalar,
 * multiplied by depth). A full page of 100 products with their nested images stays well under it.
 */
export const MAX_QUERY_COST = 20_000;

/** The most tokens a GraphQL document may have (the parser stops past it: 400). */
export const MAX_DOCUMENT_TOKENS = 5_000;
/** The most root fields (aliases included) one mutation operation may run. */
export const MAX_MUTATION_ROOT_FIELDS = 10;

/** Counts the root fields of every mutation operation, through fragments, and refuses more than the limit. */
export function mutationRootFieldLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(context.getDocument().definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
    const count = (set: SelectionSetNode, seen: Set<string>): number =>
      set.selections.reduce((total, selection) => {
        if (selection.kind === Kind.FIELD) return total + 1;
        if (selection.kind === Kind.INLINE_FRAGMENT) return total + count(selection.selectionSet, seen);
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) return total;
        return total + count(fragment.selectionSet, new Set([...seen, fragment.name.value]));
      }, 0);
    return {
      OperationDefinition(node) {
        if (node.operation !== 'mutation') return;
        const fields = count(node.selectionSet, new Set());
        if (fields > max) {
          context.reportError(new GraphQLError(`A mutation operation may run at most ${max} fields at once (this one has ${fields}).`, { nodes: [node] }));
        }
      },
    };
  };
}

/** Codes that also set the HTTP status of a GraphQL answer, so that caches and clients can see them. */
const STATUS_CODES: ErrorCode[] = ['UNDER_CONSTRUCTION', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'PAYMENTS_UNAVAILABLE'];

/** Refused operations answer as ordinary validation errors (HTTP 400, GRAPHQL_VALIDATION_FAILED). */
const reportAsValidationError = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** The shop's own validation rules, besides graphql-js's (a document answered without Apollo is checked against the same). */
export const VALIDATION_RULES = [mutationRootFieldLimit(MAX_MUTATION_ROOT_FIELDS), maxDepthRule({ n: MAX_QUERY_DEPTH, ...reportAsValidationError }), costLimitRule({ maxCost: MAX_QUERY_COST, ...reportAsValidationError })];

const httpStatusPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors }) {
        if (errors?.some((e) => isDatabaseUnavailable(unwrapResolverError(e)))) {
          response.http.status = HTTP_STATUS.SERVICE_UNAVAILABLE;
          response.http.headers.set('retry-after', String(serviceUnavailable().retryAfter));
          return;
        }
        const hit = errors?.find((e) => STATUS_CODES.includes(e.extensions?.code as ErrorCode));
        if (!hit) return;
        response.http.status = HTTP_STATUS[hit.extensions.code as ErrorCode];
        const retryAfter = hit.extensions.retryAfter;
        if (typeof retryAfter === 'number') response.http.headers.set('retry-after', String(retryAfter));
      },
    };
  },
};

/** The domain error under a GraphQL error (a resolver's AppError is wrapped once by the schema, once by graphql-js). */
function domainError(error: unknown): AppError | undefined {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause instanceof AppError ? cause : undefined;
}

/**
 * The errors a shopper can meet in the request's language (its Accept-Language, which the storefront
 * sets to its page's): `message` is said again from the catalogue, `extensions.code` is unchanged.
 * English requests, and requests naming no language the shop speaks, read the English as it is.
 */
const localizedErrorsPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors, contextValue }) {
        if (contextValue.locale === DEFAULT_LOCALE || !errors?.length || response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        // Apollo formats the errors one by one, in order: the n-th answer is the n-th error's.
        if (result.errors?.length !== errors.length) return;
        result.errors = result.errors.map((formatted, index) => {
          const original = domainError(errors[index]);
          return original?.text ? { ...formatted, message: original.messageIn(contextValue.locale) } : formatted;
        });
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
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    validationRules: VALIDATION_RULES,
    // Cache-Control is the gateway's (graphql-cache.ts): private unless the answer is a cached public one.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), httpStatusPlugin, localizedErrorsPlugin, refuseNulInOperations],
    formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
      const original = unwrapResolverError(error);
      if (original instanceof AppError) return formatted;
      const code = formatted.extensions?.code;
      if (code && code !== 'INTERNAL_SERVER_ERROR') return formatted; // validation, parse and bad-request errors
      if (isDatabaseUnavailable(original)) {
        const unavailable = serviceUnavailable();
        return { message: unavailable.message, extensions: { code: unavailable.code, retryAfter: unavailable.retryAfter }, path: formatted.path, locations: formatted.locations };
      }
      options.log.error({ err: original }, 'unhandled GraphQL error');
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' }, path: formatted.path, locations: formatted.locations };
    },
  });
}
