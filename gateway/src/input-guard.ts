import type { RequestHandler } from 'express';
import { Kind, visit, GraphQLError, type DocumentNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { badInput } from '../../server/src/core/errors.js';
import { nulPath, NUL_IN_TEXT } from '../../server/src/core/input.js';
import { sendError } from './http-errors.js';

/** A decoded address, or the address as it came when it does not decode (the router answers that 400). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The field a NUL was found in, as services name fields (`lines.0.personalisation.recipientName`). */
const fieldOf = (path: (string | number)[]) => (path.length ? path.join('.') : undefined);

/**
 * Refuses (400, with the field) a request whose address, query string or JSON body carries a NUL
 * character, before any route runs: no text a client typed reaches a query with one (see nulPath).
 * Mounted before the routes and again where the body is parsed; `/graphql` is checked by
 * refuseNulInOperations, which also sees the document's literals.
 */
export const refuseNul: RequestHandler = (req, res, next) => {
  if (nulPath(decodedPath(req.path))) return sendError(res, badInput(NUL_IN_TEXT));
  const where = nulPath(req.query) ?? nulPath(req.body);
  if (where) return sendError(res, badInput(NUL_IN_TEXT, fieldOf(where)));
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

/**
 * The GraphQL side of refuseNul: an operation whose variables or string literals hold a NUL is
 * refused (400) before it runs. The field is named as resolvers name it: within the input object a
 * variable carries (`$input` → `lines.0.personalisation.recipientName`), else the variable itself.
 */
export const refuseNulInOperations: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document }) {
        const where = nulPath(request.variables ?? {});
        if (!where && !documentHoldsNul(document)) return;
        const field = where ? fieldOf(where.length > 1 ? where.slice(1) : where) : undefined;
        throw new GraphQLError(NUL_IN_TEXT, { extensions: { code: 'BAD_USER_INPUT', ...(field ? { field } : {}), http: { status: 400 } } });
      },
    };
  },
};
