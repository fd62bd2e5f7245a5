import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory, uploadMedia, type RestFile } from '../helpers/catalogue-fixtures.js';
import { fewestQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let customer: string;
let images: RestFile[];
let songs: RestFile[];
let category: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  customer = await app.customer('gqlshopper');
  ({ images, songs } = await uploadMedia(app, admin, { images: 4, songs: 2 }));
  category = await restCategory(app, admin, 'Greeting cards');
});
afterAll(async () => {
  await app?.stop();
});

const PRODUCT_FIELDS = `
  id name description sku price categoryId productTypeId mainImageId mainImagePath mainImageThumbnailPath tags
  productType { id name }
  associatedImages { id filePath }
  eGreetingCard {
    messageLocation fontName
    song1 { id filePath kind } song2 { id } song3 { id }
    coverImage { id filePath thumbnailPath } greetingImage { id } backImage { id }
    extraImage1 { id } extraImage2 { id } extraImage3 { id }
  }`;

const CREATE = `mutation($input: ProductInput!) { createProduct(input: $input) { ${PRODUCT_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: ProductInput!) { updateProduct(id: $id, input: $input) { ${PRODUCT_FIELDS} } }`;

function input(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Birthday Balloons',
    price: '3.50',
    categoryId: category,
    productTypeId: 1,
    description: 'Balloons that float up.',
    mainImageId: images[0].id,
    tags: ['birthday', ' Balloons', 'BIRTHDAY'],
    associatedImageIds: [images[1].id],
    eGreetingCard: { messageLocation: 'TOP_CENTER', fontName: 'Pacifico', song1Id: songs[0].id, coverImageId: images[2].id, greetingImageId: images[3].id },
    ...overrides,
  };
}

describe('products over GraphQL', () => {
  let id: number;

  it('creates an e-greeting card and reads it back with its media', async () => {
    const res = await app.graphql(CREATE, { input: input() }, admin);
    expect(res.body.errors).toBeUndefined();
    const product = res.body.data.createProduct;
    id = product.id;
    expect(product).toMatchObject({
      name: 'Birthday Balloons',
      price: '3.50',
      productType: { id: 1, name: 'E-Greeting Card' },
      mainImagePath: images[0].file_path,
      mainImageThumbnailPath: images[0].thumbnail_path,
      tags: ['birthday', 'Balloons'],
      associatedImages: [{ id: images[1].id, filePath: images[1].file_path }],
      eGreetingCard: {
        messageLocation: 'TOP_CENTER',
        fontName: 'Pacifico',
        song1: { id: songs[0].id, filePath: songs[0].file_path, kind: 'AUDIO' },
        song2: null,
        coverImage: { id: images[2].id, filePath: images[2].file_path, thumbnailPath: images[2].thumbnail_path },
        greetingImage: { id: images[3].id },
        backImage: null,
      },
    });
    const read = await app.graphql(`query($id: Int!) { product(id: $id) { ${PRODUCT_FIELDS} } }`, { id });
    expect(read.body.data.product).toEqual(product);
  });

  it('updates: fields left out keep their value, null empties them', async () => {
    const res = await app.graphql(UPDATE, { id, input: { name: 'Birthday Balloons', price: 4, categoryId: category, productTypeId: 1, eGreetingCard: { song2Id: songs[1].id, coverImageId: null } } }, admin);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateProduct).toMatchObject({
      price: '4.00',
      description: 'Balloons that float up.',
      tags: ['birthday', 'Balloons'],
      eGreetingCard: { fontName: 'Pacifico', song1: { id: songs[0].id }, song2: { id: songs[1].id }, coverImage: null, greetingImage: { id: images[3].id } },
    });
  });

  it('names the field at fault in BAD_USER_INPUT errors and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [input({ name: '' }), 'name'],
      [input({ price: '0' }), 'price'],
      [input({ price: '2.345' }), 'price'],
      [input({ categoryId: 424242 }), 'categoryId'],
      [input({ eGreetingCard: { song1Id: images[0].id } }), 'eGreetingCard.song1Id'],
      [input({ eGreetingCard: { backImageId: songs[0].id } }), 'eGreetingCard.backImageId'],
      [input({ productTypeId: 3 }), 'eGreetingCard'],
      [input({ associatedImageIds: [songs[0].id] }), 'associatedImageIds'],
    ];
    for (const [bad, field] of cases) {
      const res = await app.graphql(UPDATE, { id, input: bad }, admin);
      expect(res.body.errors?.[0].extensions, field).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const after = await app.graphql(`query($id: Int!) { product(id: $id) { name price productTypeId } }`, { id });
    expect(after.body.data.product).toEqual({ name: 'Birthday Balloons', price: '4.00', productTypeId: 1 });
  });

  it('keeps writes to admins and answers NOT_FOUND for unknown products', async () => {
    expect((await app.graphql(CREATE, { input: input() })).body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await app.graphql(CREATE, { input: input() }, customer)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await app.graphql(`mutation { deleteProduct(id: ${id}) }`, {}, customer)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await app.graphql('{ product(id: 999999) { id } }')).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await app.graphql('{ products(categoryId: 999999) { totalCount } }')).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await app.graphql('mutation { deleteProduct(id: 999999) }', {}, admin)).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('hides where a file is used from everyone but admins', async () => {
    const query = `query($id: Int!) { product(id: $id) { mainImage { id usages { kind } } } }`;
    expect((await app.graphql(query, { id })).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await app.graphql(query, { id }, admin)).body.data.product.mainImage.usages).toEqual([{ kind: 'product' }]);
  });

  it('deletes a product', async () => {
    const other = (await app.graphql(CREATE, { input: input({ name: 'Doomed' }) }, admin)).body.data.createProduct;
    expect((await app.graphql(`mutation { deleteProduct(id: ${other.id}) }`, {}, admin)).body.data.deleteProduct).toBe(true);
    expect(await app.sql('select 1 from product where id = $1', [other.id])).toEqual([]);
  });
});

describe('product lists', () => {
  let shelf: number;
  const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'Foxtrot', 'golf'];

  beforeAll(async () => {
    shelf = await restCategory(app, admin, 'Shelf');
    for (const [i, name] of names.entries()) {
      const res = await app.graphql(CREATE, { input: input({ name, categoryId: shelf, sku: null, tags: i % 2 ? ['Lullaby'] : ['party'], description: i === 4 ? 'A song for the sea' : '' }) }, admin);
      expect(res.body.errors).toBeUndefined();
    }
  });

  it('pages a category by name, ignoring case, with cursors and a total', async () => {
    const page = (after?: string) => app.graphql(`query($c: Int!, $after: String) { products(categoryId: $c, first: 3, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { node { name } } } }`, { c: shelf, after });
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 3; i++) {
      const res = (await page(after)).body.data.products;
      expect(res.totalCount).toBe(7);
      expect(res.pageInfo.hasPreviousPage).toBe(i > 0);
      seen.push(...res.edges.map((e: { node: { name: string } }) => e.node.name));
      after = res.pageInfo.endCursor;
      expect(res.pageInfo.hasNextPage).toBe(i < 2);
    }
    expect(seen).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'Foxtrot', 'golf']);
    const bad = await app.graphql('query($c: Int!) { products(categoryId: $c, after: "nonsense") { totalCount } }', { c: shelf });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    const tooMany = await app.graphql('query($c: Int!) { products(categoryId: $c, first: 1000) { totalCount } }', { c: shelf });
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  it('searches names, descriptions and tags: every word must match, case does not matter', async () => {
    const search = async (query: string, categoryId?: number) =>
      (await app.graphql('query($q: String, $c: Int) { searchProducts(query: $q, categoryId: $c) { totalCount edges { node { name } } } }', { q: query, c: categoryId })).body.data.searchProducts.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(await search('lullaby', shelf)).toEqual(['Alpha', 'Bravo', 'Foxtrot']);
    expect(await search('SEA song')).toEqual(['echo']);
    expect(await search('party ALPHA')).toEqual([]);
    expect(await search('100%')).toEqual([]);
    expect(await search('BALLOONS')).toEqual(['Birthday Balloons']);
  });

  it('reads a page in a bounded number of queries, whatever its size', async () => {
    const query = `query($c: Int!, $first: Int) { products(categoryId: $c, first: $first) { totalCount edges { node { ${PRODUCT_FIELDS} } } } }`;
    // The fewest of a few runs: what the shop does on its own meanwhile (its queues looking for due work) lands in one run, never in all.
    const countQueries = (first: number) =>
      fewestQueries(
        app,
        async () => {
          const res = await app.graphql(query, { c: shelf, first });
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data.products.edges).toHaveLength(first);
          expect(res.body.data.products.edges[0].node.eGreetingCard.song1.filePath).toBe(songs[0].file_path);
        },
        (queries) => selects(queries).length,
      );
    const small = await countQueries(2);
    const large = await countQueries(7);
    expect(large).toBe(small);
    // category check, page, count, associated images, card data with its media
    expect(large).toBeLessThanOrEqual(6);
  });
});

describe('the shop search', () => {
  it('finds the products of a category and of every category below it, and filters by type', async () => {
    const parent = await restCategory(app, admin, 'Holidays');
    const child = await restCategory(app, admin, 'Christmas', parent);
    const grandchild = await restCategory(app, admin, 'Advent', child);
    const card = await app.graphql(CREATE, { input: input({ name: 'Snowy Pines', categoryId: grandchild }) }, admin);
    const album = await app.graphql(CREATE, { input: input({ name: 'Carols Album', categoryId: child, productTypeId: 2, eGreetingCard: undefined }) }, admin);
    expect([card.body.errors, album.body.errors]).toEqual([undefined, undefined]);
    const search = async (variables: Record<string, unknown>) =>
      (await app.graphql(`query($categoryId: Int, $productTypeId: Int) { searchProducts(categoryId: $categoryId, productTypeId: $productTypeId) { totalCount edges { node { name } } } }`, variables)).body.data.searchProducts.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(await search({ categoryId: parent })).toEqual(['Carols Album', 'Snowy Pines']);
    expect(await search({ categoryId: grandchild })).toEqual(['Snowy Pines']);
    expect(await search({ categoryId: parent, productTypeId: 2 })).toEqual(['Carols Album']);
  });
});
