import fs from 'node:fs';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';

/**
 * Every type, field, argument, enum value and input field of the published schema says what it is
 * (contract section 19): the schema is the API's reference, read in the explorer and by codegen.
 * The schema checked in is read, the one `tests/integration/schema.test.ts` holds to the server's.
 */
const schema = buildSchema(fs.readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

const described = (description: string | null | undefined): boolean => Boolean(description?.trim());

/** Every element of a type without a description, as `Type`, `Type.field`, `Type.field(arg)`, `Enum.VALUE`. */
function undescribed(type: GraphQLNamedType): string[] {
  const missing = described(type.description) ? [] : [type.name];
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const field of Object.values(type.getFields())) {
      if (!described(field.description)) missing.push(`${type.name}.${field.name}`);
      for (const arg of field.args) if (!described(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name})`);
    }
  } else if (isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) if (!described(field.description)) missing.push(`${type.name}.${field.name}`);
  } else if (isEnumType(type)) {
    for (const value of type.getValues()) if (!described(value.description)) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

/** The schema's own types: introspection's `__` types and the scalars graphql-js defines are not ours to describe. */
const ownTypes = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__') && !(isScalarType(type) && isSpecifiedScalarType(type)));

describe('schema descriptions', () => {
  it('describe every type, field, argument, enum value and input field (run `npm run codegen` after adding one)', () => {
    expect(ownTypes.flatMap(undescribed)).toEqual([]);
  });

  it('are checked on every kind of type the schema has', () => {
    // A walk that skipped a kind would pass for the wrong reason.
    const kinds = new Set(ownTypes.map((type) => (isObjectType(type) ? 'object' : isInputObjectType(type) ? 'input' : isEnumType(type) ? 'enum' : isScalarType(type) ? 'scalar' : isUnionType(type) ? 'union' : 'interface')));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['enum', 'input', 'object', 'scalar']));
    expect(ownTypes.length).toBeGreaterThan(100);
  });

  it('name what is missing, each by its path', () => {
    const bare = buildSchema(`
      type Query { "A described field." described(id: Int): Thing  bare(id: Int): Thing }
      "A thing." type Thing { name: String }
      enum Colour { RED "Described." BLUE }
      input Filter { "Described." colour: Colour  size: Int }
      scalar Money
    `);
    const names = Object.values(bare.getTypeMap())
      .filter((type) => !type.name.startsWith('__') && !(isScalarType(type) && isSpecifiedScalarType(type)))
      .flatMap(undescribed)
      .sort();
    expect(names).toEqual(['Colour', 'Colour.RED', 'Filter', 'Filter.size', 'Money', 'Query', 'Query.bare', 'Query.bare(id)', 'Query.described(id)', 'Thing.name'].sort());
  });
});
