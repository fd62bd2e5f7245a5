import { Kind, execute, parse, validate, visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
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
    em: () => ctx.em.fork(),
    requestId: ctx.requestId,
    ip: ctx.ip,
    log: ctx.log,
    locale: ctx.locale,
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
 *
 * The queries are the shop's own, checked against the schema once, and run straight through
 * graphql-js with the visitor's context (its batch loaders shared with the rest of the page's
 * reads: the product the page describes is read once), not through Apollo's HTTP pipeline.
 */
export class InitialStateReader {
  private readonly valid: Set<InitialOperation>;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly services: Services,
    log: Pick<Logger, 'error'>,
  ) {
    this.valid = new Set();
    for (const [name, document] of Object.entries(DOCUMENTS) as [InitialOperation, DocumentNode][]) {
      const errors = validate(schema, document);
      if (errors.length) log.error({ operation: name, errors: errors.map((e) => e.message) }, 'a page query does not match the schema; pages are sent without its data');
      else this.valid.add(name);
    }
  }

  /** The page's data, read with `visitor` (an anonymous context: see `anonymous`). */
  async read(visitor: RequestContext, reads: InitialRead[]): Promise<InitialState> {
    const [underConstructionMode, shop] = await Promise.all([this.services.settings.isUnderConstruction(visitor), this.services.settings.publicShop(visitor)]);
    // The shop's name, logo and announcement are everyone's to see, the shop closed or not (the header shows them).
    const state: InitialState = { settings: { underConstructionMode, isAdmin: false }, shop };
    if (underConstructionMode || !reads.length) return state;
    const results = await Promise.all(reads.map((read) => this.execute(visitor, read)));
    state.queries = results.filter((r) => r !== null);
    return state;
  }

  private async execute(visitor: RequestContext, read: InitialRead): Promise<NonNullable<InitialState['queries']>[number] | null> {
    if (!this.valid.has(read.operationName)) return null;
    try {
      const result = await execute({ schema: this.schema, document: DOCUMENTS[read.operationName], variableValues: read.variables, operationName: read.operationName, contextValue: visitor });
      if (result.errors?.length || !result.data) return null;
      // As it goes over the wire: the client's cache reads plain JSON values.
      return { operationName: read.operationName, variables: read.variables, data: JSON.parse(JSON.stringify(result.data)) as unknown };
    } catch (error) {
      visitor.log.warn({ err: error, operation: read.operationName }, 'initial page data could not be read');
      return null;
    }
  }
}
