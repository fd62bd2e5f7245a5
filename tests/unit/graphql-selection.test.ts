import { parse, type FragmentDefinitionNode, type OperationDefinitionNode, type FieldNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { asksFor } from '../../server/src/core/selection.js';

/** The resolve info of the operation's first root field, as GraphQL hands it to that field's resolver. */
function infoOf(document: string) {
  const parsed = parse(document);
  const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
  const fragments = Object.fromEntries(parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((d) => [d.name.value, d]));
  return { fieldNodes: [operation.selectionSet.selections[0] as FieldNode], fragments };
}

describe('asksFor: whether an operation asks for a field below the one being resolved', () => {
  it('finds a field by its path, and not a field of the same name elsewhere', () => {
    expect(asksFor(infoOf('{ cartQuote(lines: []) { total lines { index product { id } } } }'), ['lines', 'product'])).toBe(true);
    expect(asksFor(infoOf('{ cartQuote(lines: []) { total lines { index } } }'), ['lines', 'product'])).toBe(false);
    expect(asksFor(infoOf('{ cartQuote(lines: []) { product: total lines { index } } }'), ['lines', 'product'])).toBe(false);
    expect(asksFor(infoOf('{ cartQuote(lines: []) { total } }'), ['lines', 'product'])).toBe(false);
    expect(asksFor(infoOf('{ cartQuote(lines: []) { total } }'), [])).toBe(false);
  });

  it('looks through inline fragments and named fragments, nested ones and cycles included', () => {
    expect(asksFor(infoOf('{ cartQuote(lines: []) { ... on CartQuote { lines { ... on CartQuoteLine { product { id } } } } } }'), ['lines', 'product'])).toBe(true);
    expect(asksFor(infoOf('query { cartQuote(lines: []) { ...Q } } fragment Q on CartQuote { total ...L } fragment L on CartQuote { lines { ...P } } fragment P on CartQuoteLine { product { id } }'), ['lines', 'product'])).toBe(true);
    expect(asksFor(infoOf('query { cartQuote(lines: []) { ...Q } } fragment Q on CartQuote { ...Q lines { index } }'), ['lines', 'product'])).toBe(false);
    expect(asksFor(infoOf('query { cartQuote(lines: []) { ...Missing } }'), ['lines', 'product'])).toBe(false);
  });
});
