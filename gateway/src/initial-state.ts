import { Kind, parse, visit, type DocumentNode } from 'graphql';
import type { ApolloServer } from '@apollo/server';
import { createRequestContext, type RequestContext } from '../../server/src/core/context.js';
import { unauthenticated } from '../../server/src/core/errors.js';
import type { Services } from '../../server/src/services.js';
import { INITIAL_QUERIES, type InitialOperation } from './initial-queries.js';
import type { InitialState } from './web-client.js';

/** The documents as the client's cache asks for them: `__typename` in every selection below the root. */
const DOCUMENTS = Object.fromEntries(Object.entries(INITIAL_QUERIES).map(([name, text]) => [name, withTypename(parse(text))])) as Record<InitialOperation, DocumentNode>;

export function withTypename(document: DocumentNode): DocumentNode {
  return visit(document, {
    SelectionSet(node, _key, parent) {
      if (parent && 'kind' in parent && parent.kind === Kind.OPERATION_DEFINITION) return undefined;
      if (node.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename')) return undefined;
      return { ...node, selections: [...node.selections, { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }] };
    },
  });
}

/** The same request, as an anonymous caller: what a page carries is what anyone may read. */
export function anonymous(ctx: RequestContext): RequestContext {
  // No token: the viewer is null and requireViewer answers UNAUTHENTICATED.
  return createRequestContext({
    em: ctx.em.fork(),
    requestId: ctx.requestId,
    ip: ctx.ip,
    log: ctx.log,
    authenticate: async () => {
      throw unauthenticated();
    },
  });
}

export interface InitialRead {
  operationName: InitialOperation;
  variables: Record<string, unknown>;
}

/**
 * The data a page starts from, written into its HTML so that its first screen paints without
 * waiting for more round trips: the site settings and the results of the page's first queries.
 *
 * Always read as an anonymous visitor (the session token lives in the browser, never in a page
 * request): while the shop is under construction only the settings are sent, and nothing an admin
 * alone may see (drafts, orders) can ever be part of it. A query that fails is left out; the
 * client then asks for it itself.
 */
export class InitialStateReader {
  constructor(
    private readonly apollo: ApolloServer<RequestContext>,
    private readonly services: Services,
  ) {}

  async read(ctx: RequestContext, reads: InitialRead[]): Promise<InitialState> {
    const visitor = anonymous(ctx);
    const underConstructionMode = await this.services.settings.isUnderConstruction(visitor);
    const state: InitialState = { settings: { underConstructionMode, isAdmin: false } };
    if (underConstructionMode || !reads.length) return state;
    const results = await Promise.all(reads.map((read) => this.execute(visitor, read)));
    state.queries = results.filter((r) => r !== null);
    return state;
  }

  private async execute(ctx: RequestContext, read: InitialRead): Promise<NonNullable<InitialState['queries']>[number] | null> {
    try {
      const response = await this.apollo.executeOperation(
        { query: DOCUMENTS[read.operationName], variables: read.variables, operationName: read.operationName },
        { contextValue: anonymous(ctx) },
      );
      if (response.body.kind !== 'single' || response.body.singleResult.errors?.length || !response.body.singleResult.data) return null;
      return { operationName: read.operationName, variables: read.variables, data: response.body.singleResult.data };
    } catch (error) {
      ctx.log.warn({ err: error, operation: read.operationName }, 'initial page data could not be read');
      return null;
    }
  }
}
