import { Kind, getArgumentValues, getVariableValues, type DocumentNode, type GraphQLEnumType, type GraphQLField, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { CARD_MEDIA_SLOTS, slotStem } from '../../server/src/modules/catalogue/index.js';
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../server/src/rules/locales.js';

/**
 * GraphQL `product(id, locale)` answered from the REST detail's JSON (`GET /api/products/{id}?lang=`,
 * the one-statement read the read cache keeps), without Apollo: a document that asks for nothing
 * but one product and fields the REST detail holds (the product's own, its main image's path, its
 * associated images and its card data with each slot's id and path) is compiled once, when the
 * cache first learns it, into a function from that JSON to the answer's JSON. The answer is built
 * in the order the document asks, leaves serialized by the schema's own scalars and enums, so its
 * bytes are the ones Apollo would send. Anything else (fragments, directives, another root field, a
 * field the detail does not hold) is not compiled and goes through Apollo, as does every product
 * the detail does not find (Apollo answers NOT_FOUND, or shows an admin a draft).
 */

/** The REST detail of a product, as catalogue-reads.ts builds it. */
interface Detail {
  product: { id: number; name: string; description: string; sku: string | null; price: number; compare_at_price: number | null; status: string; category_id: number; product_type_id: number; main_image_id: number | null };
  main_image_path: string | null;
  tags: string[];
  associated_images: { media_id: number; file_path: string; friendly_name: string }[];
  e_greeting_card_data: Record<string, unknown> | null;
}

type Value = unknown;
/** A field's answer from its source (a detail, an image, a card or a slot). */
type FieldReader = (source: never) => Value;
/** What a selection set can ask of one type: a leaf, or an object (one or a list) with its own readers. */
type FieldSpec = { leaf: FieldReader } | { object: FieldReader; of: Record<string, FieldSpec>; typename: string; list?: boolean };

/** Prices travel as the Decimal scalar does: a string with two decimals (the detail has numeric(12,2) as a float, exact to the cent). */
const decimal = (value: number | null) => (value === null ? null : value.toFixed(2));

function fieldsOf(schema: GraphQLSchema): Record<string, FieldSpec> {
  const enumValue = (name: string) => {
    const type = schema.getType(name) as GraphQLEnumType;
    return (value: string) => type.serialize(value);
  };
  const status = enumValue('ProductStatus');
  const location = enumValue('MessageLocation');
  const slot = (id: unknown, path: unknown) => (id === null || id === undefined ? null : { id, path });
  const slotFields: Record<string, FieldSpec> = {
    id: { leaf: (file: { id: number }) => file.id },
    filePath: { leaf: (file: { path: string }) => file.path },
  };
  const card: Record<string, FieldSpec> = {
    messageLocation: { leaf: (c: Record<string, string>) => location(c.message_location!) },
    fontName: { leaf: (c: Record<string, unknown>) => c.font_name ?? null },
    defaultMessage: { leaf: (c: Record<string, unknown>) => c.default_message },
  };
  for (const name of CARD_MEDIA_SLOTS) {
    const stem = slotStem(name);
    card[name] = { object: (c: Record<string, unknown>) => slot(c[`${stem}_id`], c[`${stem}_path`]), of: slotFields, typename: 'MediaFile' };
  }
  return {
    id: { leaf: (d: Detail) => d.product.id },
    name: { leaf: (d: Detail) => d.product.name },
    description: { leaf: (d: Detail) => d.product.description },
    sku: { leaf: (d: Detail) => d.product.sku },
    price: { leaf: (d: Detail) => decimal(d.product.price) },
    compareAtPrice: { leaf: (d: Detail) => decimal(d.product.compare_at_price) },
    status: { leaf: (d: Detail) => status(d.product.status) },
    tags: { leaf: (d: Detail) => d.tags },
    categoryId: { leaf: (d: Detail) => d.product.category_id },
    productTypeId: { leaf: (d: Detail) => d.product.product_type_id },
    mainImageId: { leaf: (d: Detail) => d.product.main_image_id },
    mainImagePath: { leaf: (d: Detail) => d.main_image_path },
    associatedImages: {
      object: (d: Detail) => d.associated_images,
      list: true,
      typename: 'MediaFile',
      of: {
        id: { leaf: (image: Detail['associated_images'][number]) => image.media_id },
        filePath: { leaf: (image: Detail['associated_images'][number]) => image.file_path },
        friendlyName: { leaf: (image: Detail['associated_images'][number]) => image.friendly_name },
      },
    },
    eGreetingCard: { object: (d: Detail) => d.e_greeting_card_data, of: card, typename: 'EGreetingCard' },
  };
}

/** A selection set compiled into a function of its source, or null when it asks for anything the detail cannot answer exactly. */
function compile(set: SelectionSetNode, fields: Record<string, FieldSpec>, typename: string): ((source: never) => Record<string, Value>) | null {
  const readers: [string, (source: never) => Value][] = [];
  for (const selection of set.selections) {
    // Fragments and @include/@skip are left to Apollo; so are two fields under one name (GraphQL merges them).
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return null;
    const key = selection.alias?.value ?? selection.name.value;
    if (key === '__proto__' || readers.some(([k]) => k === key)) return null;
    if (selection.name.value === '__typename') {
      if (selection.selectionSet) return null;
      readers.push([key, () => typename]);
      continue;
    }
    const spec = fields[selection.name.value];
    if (!spec) return null;
    if ('leaf' in spec) {
      if (selection.selectionSet) return null;
      readers.push([key, spec.leaf]);
      continue;
    }
    if (!selection.selectionSet) return null;
    const inner = compile(selection.selectionSet, spec.of, spec.typename);
    if (!inner) return null;
    const read = spec.object;
    readers.push([key, spec.list ? (source) => (read(source) as never[]).map(inner) : (source) => { const value = read(source); return value === null || value === undefined ? null : inner(value as never); }]);
  }
  return (source) => {
    const out: Record<string, Value> = {};
    for (const [key, read] of readers) out[key] = read(source);
    return out;
  };
}

/** A document answered from the REST detail: which product and language a request's variables ask for, and the answer's body from the detail's JSON. */
export interface ProductRead {
  /** The operation's name, if it has one: a request naming another operation is Apollo's to refuse. */
  operationName: string | undefined;
  /** The product and language asked, or null when the arguments are ones Apollo must judge (a language the shop does not speak...). */
  target(variables: Record<string, unknown> | undefined): { id: number; locale: Locale } | null;
  /** The answer's body as Apollo sends it (its JSON and a newline). */
  body(detailJson: string): string;
}

/**
 * The product read of a document already parsed and validated (as Apollo validates it), or null
 * when the document is not one (see above).
 */
export function productRead(schema: GraphQLSchema, document: DocumentNode): ProductRead | null {
  if (document.definitions.length !== 1) return null;
  const operation = document.definitions[0] as OperationDefinitionNode;
  if (operation.kind !== Kind.OPERATION_DEFINITION || operation.operation !== 'query' || operation.directives?.length) return null;
  const [root, ...others] = operation.selectionSet.selections;
  if (others.length || root?.kind !== Kind.FIELD || root.name.value !== 'product' || root.directives?.length || !root.selectionSet) return null;
  const field = schema.getQueryType()?.getFields().product as GraphQLField<unknown, unknown> | undefined;
  const read = field && compile(root.selectionSet, fieldsOf(schema), 'Product');
  if (!read) return null;
  const key = root.alias?.value ?? 'product';
  const definitions = operation.variableDefinitions ?? [];
  return {
    operationName: operation.name?.value,
    target(variables) {
      // Coerced as graphql-js coerces them when it runs the operation.
      const coerced = getVariableValues(schema, definitions, variables ?? {});
      if (coerced.errors) return null;
      let args: Record<string, unknown>;
      try {
        args = getArgumentValues(field, root, coerced.coerced);
      } catch {
        return null;
      }
      const { id, locale } = args;
      if (typeof id !== 'number') return null;
      if (locale === undefined || locale === null || locale === '') return { id, locale: DEFAULT_LOCALE };
      const parsed = typeof locale === 'string' ? parseLocale(locale) : null;
      return parsed ? { id, locale: parsed } : null;
    },
    body(detailJson) {
      return `${JSON.stringify({ data: { [key]: read(JSON.parse(detailJson) as never) } })}\n`;
    },
  };
}
