import type { RequestHandler } from 'express';
import { Kind, visit, GraphQLError, type DocumentNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { badInput } from '../../server/src/core/errors.js';
import { holdsNul, NUL_IN_TEXT } from '../../server/src/core/input.js';
import { sendError } from './http-errors.js';

/** A decoded address, or the address as it came when it does not decode (the router answers that 400). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Refuses (400) a request whose address, query string or JSON body carries a NUL character, before
 * any route runs: no text a client typed reaches a query with one (see holdsNul). Mounted where the
 * body is parsed; `/graphql` is checked by refuseNulInOperations, which also sees the document's literals.
 */
export const refuseNul: RequestHandler = (req, res, next) => {
  if (holdsNul(decodedPath(req.path)) || holdsNul(req.query) || holdsNul(req.body)) return sendError(res, badInput(NUL_IN_TEXT));
  next();
};

function documentHoldsNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.STRING](node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

/** The GraphQL side of refuseNul: variables and string literals of an operation with a NUL are refused (400) before it runs. */
export const refuseNulInOperations: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document }) {
        if (holdsNul(request.variables) || documentHoldsNul(document)) {
          throw new GraphQLError(NUL_IN_TEXT, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
        }
      },
    };
  },
};
