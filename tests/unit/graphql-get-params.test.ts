import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getParams, type GraphqlParams } from '../../gateway/src/graphql-cache.js';

/**
 * The GraphQL GET cache reads an address exactly as Apollo does (issue 24, item 1): for any address,
 * what `getParams` makes of it is what Apollo's Express integration hands to the request pipeline,
 * and when `getParams` refuses to read one, Apollo refuses it too. Apollo itself is the oracle: a real
 * server records the request it was given.
 */

let server: http.Server;
let apollo: ApolloServer;
let base: string;
let seen: GraphqlParams | null = null;

beforeAll(async () => {
  apollo = new ApolloServer({
    typeDefs: 'type Query { hello(name: String): String }',
    resolvers: { Query: { hello: (_: unknown, { name }: { name?: string }) => `hello ${name ?? ''}` } },
    plugins: [
      {
        async requestDidStart({ request }) {
          seen = { query: request.query, operationName: request.operationName, variables: request.variables, extensions: request.extensions };
        },
      },
    ],
  });
  await apollo.start();
  const app = express();
  app.use('/graphql', express.json(), expressMiddleware(apollo));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await apollo?.stop();
});

/** The pieces an address is made of: the parameters Apollo reads (well formed or not), others, and the separators between them. */
const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('{"name":"a&b"}', '{"name":"x"}', '{', '[1]', 'null', '"s"', '{}'),
  fc.string({ maxLength: 12 }),
);
const encodeSome = (text: string, encode: boolean) => (encode ? encodeURIComponent(text) : text);
const part = fc.oneof(
  fc.tuple(fc.constantFrom('query', 'query', 'operationName', 'variables', 'extensions', 'Query', 'query[]', 'p'), fc.oneof(fc.constantFrom('{ hello }', 'query Q($name: String) { hello(name: $name) }', 'Q', '{__typename}'), jsonText), fc.boolean()).map(
    ([name, value, encode]) => `${name}=${encodeSome(value, encode)}`,
  ),
  fc.constantFrom('', '&', '&&&', '=', 'query', 'a=b=c', '%26', '%3D', '%zz', '+', '#frag', '?', ';', 'query=%7B%20hello%20%7D'),
  fc.string({ maxLength: 8 }),
);
const address = fc.array(part, { maxLength: 12 }).map((parts) => `/graphql?${parts.join('&')}`);

async function apolloReads(path: string): Promise<{ status: number; params: GraphqlParams | null }> {
  seen = null;
  const res = await fetch(base + path.replace(/#.*$/, ''), { headers: { 'apollo-require-preflight': '1' } }).catch(() => null);
  if (!res) return { status: 0, params: null };
  await res.arrayBuffer();
  return { status: res.status, params: seen };
}

const defined = (params: GraphqlParams) => Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));

describe('the GraphQL GET parameters', () => {
  it('are read as Apollo reads them, for any address', async () => {
    await fc.assert(
      fc.asyncProperty(address, async (path) => {
        // fetch drops a fragment before sending; the cache never sees one either (it is not sent).
        const sent = path.replace(/#.*$/, '');
        if (!URL.canParse(base + sent)) return;
        const mine = getParams(sent, {});
        const apollo = await apolloReads(sent);
        // Either both read the same parameters, or both refuse the address (Apollo with a 400).
        if (apollo.params) expect(mine && defined(mine)).toEqual(defined(apollo.params));
        else expect({ mine, status: apollo.status }).toEqual({ mine: null, status: 400 });
        if (mine === null) expect(apollo.status).toBe(400);
      }),
      { numRuns: 400 },
    );
  });

  it('reads an address with 1,000 separators and repeated parameters as Apollo does', async () => {
    const path = `/graphql?${'&'.repeat(1000)}query=${encodeURIComponent('{ hello }')}${'&p=1'.repeat(1000)}`;
    const apollo = await apolloReads(path);
    expect(apollo.params).not.toBeNull();
    expect(defined(getParams(path, {})!)).toEqual(defined(apollo.params!));
    const twice = `${path}&query=${encodeURIComponent('{ hello }')}`;
    expect(getParams(twice, {})).toBeNull();
    expect((await apolloReads(twice)).status).toBe(400);
  });
});
