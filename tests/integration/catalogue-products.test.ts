import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory, uploadMedia, type RestFile } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let customer: string;
let images: RestFile[];
let songs: RestFile[];
let cards: number;
let albums: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  customer = await app.customer('shopper');
  ({ images, songs } = await uploadMedia(app, admin, { images: 8, songs: 3 }));
  cards = await restCategory(app, admin, 'Cards');
  albums = await restCategory(app, admin, 'Albums');
});
afterAll(async () => {
  await app?.stop();
});

const post = (path: string, json: unknown, token = admin) => app.request(path, { method: 'POST', json, token });
const put = (path: string, json: unknown, token = admin) => app.request(path, { method: 'PUT', json, token });
const del = (path: string, token = admin) => app.request(path, { method: 'DELETE', token });
const count = async (table: string) => (await app.sql<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;
const rowCounts = async () => ({ product: await count('product'), product_image: await count('product_image'), e_greeting_card: await count('e_greeting_card') });

function cardBody(overrides: Record<string, unknown> = {}) {
  return {
    product: { name: 'Spring Blossoms', description: 'Cherry trees in bloom.', sku: 'EC-001', price: 4.99, category_id: cards, product_type_id: 1, main_image_id: images[0].id },
    tags: [' spring ', 'Flowers', 'SPRING', '', 'flowers '],
    associated_image_ids: [images[1].id, images[2].id],
    e_greeting_card_data: {
      message_location: 'bottom-right',
      font_name: 'Dancing Script',
      song_1_id: songs[0].id,
      song_2_id: songs[1].id,
      song_3_id: null,
      cover_image_id: images[3].id,
      greeting_image_id: images[4].id,
      back_image_id: images[5].id,
      extra_image_1_id: images[6].id,
      extra_image_2_id: null,
      extra_image_3_id: null,
    },
    ...overrides,
  };
}

describe('products over REST', () => {
  let card: { product: { id: number } };

  it('creates an e-greeting card with its tags, images and card data, and answers the detail shape', async () => {
    const res = await post('/api/products', cardBody());
    expect(res.status).toBe(201);
    card = await res.json();
    expect(card).toEqual({
      product: {
        id: expect.any(Number),
        name: 'Spring Blossoms',
        description: 'Cherry trees in bloom.',
        sku: 'EC-001',
        price: 4.99,
        compare_at_price: null,
        status: 'active',
        category_id: cards,
        product_type_id: 1,
        main_image_id: images[0].id,
      },
      main_image_path: images[0].file_path,
      tags: ['spring', 'Flowers'],
      associated_images: [
        { media_id: images[1].id, file_path: images[1].file_path, friendly_name: 'image-2.png' },
        { media_id: images[2].id, file_path: images[2].file_path, friendly_name: 'image-3.png' },
      ],
      translations: [],
      e_greeting_card_data: {
        message_location: 'bottom-right',
        font_name: 'Dancing Script',
        default_message: '',
        song_1_id: songs[0].id,
        song_1_path: songs[0].file_path,
        song_2_id: songs[1].id,
        song_2_path: songs[1].file_path,
        song_3_id: null,
        song_3_path: null,
        cover_image_id: images[3].id,
        cover_image_path: images[3].file_path,
        greeting_image_id: images[4].id,
        greeting_image_path: images[4].file_path,
        back_image_id: images[5].id,
        back_image_path: images[5].file_path,
        extra_image_1_id: images[6].id,
        extra_image_1_path: images[6].file_path,
        extra_image_2_id: null,
        extra_image_2_path: null,
        extra_image_3_id: null,
        extra_image_3_path: null,
      },
    });
    expect(await (await app.request(`/api/products/${card.product.id}`)).json()).toEqual(card);
    const [row] = await app.sql('select price::text as price, tags, search_text from product where id = $1', [card.product.id]);
    expect(row).toEqual({ price: '4.99', tags: ['spring', 'Flowers'], search_text: 'spring blossoms cherry trees in bloom. spring flowers' });
  });

  it('keeps prices exact: two decimals, never through floating point', async () => {
    for (const [sent, stored] of [['19.9', '19.90'], [0.1, '0.10'], ['007.50', '7.50'], [1000000, '1000000.00'], ['12.340', '12.34']] as const) {
      const res = await post('/api/products', { product: { name: `Priced ${sent}`, price: sent, category_id: albums, product_type_id: 2 } });
      expect(res.status, String(sent)).toBe(201);
      const { product } = await res.json();
      expect(await app.sql('select price::text as price from product where id = $1', [product.id])).toEqual([{ price: stored }]);
      expect(product.price).toBe(Number(stored));
      await del(`/api/products/${product.id}`);
    }
  });

  it.each([
    ['an empty name', { product: { name: '  ', price: 5, category_id: 0, product_type_id: 2 } }, 'name'],
    ['a zero price', { product: { name: 'X', price: 0, category_id: 0, product_type_id: 2 } }, 'price'],
    ['a negative price', { product: { name: 'X', price: '-3', category_id: 0, product_type_id: 2 } }, 'price'],
    ['a price that is not a number', { product: { name: 'X', price: 'abc', category_id: 0, product_type_id: 2 } }, 'price'],
    ['three decimals', { product: { name: 'X', price: 1.999, category_id: 0, product_type_id: 2 } }, 'price'],
    ['a float artefact', { product: { name: 'X', price: 0.1 + 0.2, category_id: 0, product_type_id: 2 } }, 'price'],
    ['a price past the maximum', { product: { name: 'X', price: '1000000.01', category_id: 0, product_type_id: 2 } }, 'price'],
    ['no category', { product: { name: 'X', price: 5, product_type_id: 2 } }, 'category_id'],
    ['an unknown category', { product: { name: 'X', price: 5, category_id: 999999, product_type_id: 2 } }, 'category_id'],
    ['an unknown product type', { product: { name: 'X', price: 5, category_id: 0, product_type_id: 999 } }, 'product_type_id'],
    ['an unknown main image', { product: { name: 'X', price: 5, category_id: 0, product_type_id: 2, main_image_id: 999999 } }, 'main_image_id'],
    ['tags that are not texts', { product: { name: 'X', price: 5, category_id: 0, product_type_id: 2 }, tags: [1, 2] }, 'tags'],
    ['associated ids that are not ids', { product: { name: 'X', price: 5, category_id: 0, product_type_id: 2 }, associated_image_ids: ['a'] }, 'associated_image_ids'],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_label, json, field) => {
    const body = structuredClone(json) as { product: Record<string, unknown> };
    if (body.product.category_id === 0) body.product.category_id = albums;
    const before = await rowCounts();
    const res = await post('/api/products', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses songs that are not audio, images that are not images, and card data on other types', async () => {
    const before = await rowCounts();
    const cases: [Record<string, unknown>, string][] = [
      [cardBody({ product: { ...cardBody().product, main_image_id: songs[0].id } }), 'main_image_id'],
      [cardBody({ associated_image_ids: [images[1].id, songs[2].id] }), 'associated_image_ids'],
      [cardBody({ e_greeting_card_data: { ...cardBody().e_greeting_card_data, song_3_id: images[0].id } }), 'e_greeting_card_data.song_3_id'],
      [cardBody({ e_greeting_card_data: { ...cardBody().e_greeting_card_data, cover_image_id: songs[0].id } }), 'e_greeting_card_data.cover_image_id'],
      [cardBody({ e_greeting_card_data: { ...cardBody().e_greeting_card_data, extra_image_3_id: 999999 } }), 'e_greeting_card_data.extra_image_3_id'],
      [cardBody({ e_greeting_card_data: { ...cardBody().e_greeting_card_data, message_location: 'upside-down' } }), 'e_greeting_card_data.message_location'],
      [cardBody({ e_greeting_card_data: { ...cardBody().e_greeting_card_data, font_name: "Roboto'); background:url(x" } }), 'e_greeting_card_data.font_name'],
      [cardBody({ product: { ...cardBody().product, product_type_id: 2, sku: null } }), 'e_greeting_card_data'],
    ];
    for (const [json, field] of cases) {
      const res = await post('/api/products', json);
      expect(res.status, field).toBe(400);
      expect((await res.json()).field).toBe(field);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a second product with the same SKU (ignoring case) with 409', async () => {
    const res = await post('/api/products', { product: { name: 'Copy', price: 1, sku: 'ec-001', category_id: albums, product_type_id: 2 } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'CONFLICT', field: 'sku' });
  });

  it('lists a category by name, ignoring case, with the main image path', async () => {
    for (const name of ['banjo Blues', 'Accordion Airs', 'cello Calm']) {
      await post('/api/products', { product: { name, price: 9.5, category_id: albums, product_type_id: 2, main_image_id: name === 'cello Calm' ? images[7].id : null } });
    }
    const res = await app.request(`/api/products/category/${albums}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: expect.any(Number), name: 'Accordion Airs', description: '', main_image_path: null },
      { id: expect.any(Number), name: 'banjo Blues', description: '', main_image_path: null },
      { id: expect.any(Number), name: 'cello Calm', description: '', main_image_path: images[7].file_path },
    ]);
    expect((await app.request('/api/products/category/999999')).status).toBe(404);
    expect((await app.request('/api/products/category/abc')).status).toBe(404);
  });

  it('answers 404 for unknown products', async () => {
    expect((await app.request('/api/products/999999')).status).toBe(404);
    expect((await app.request('/api/products/-1')).status).toBe(404);
    expect((await put('/api/products/999999', cardBody())).status).toBe(404);
    expect((await del('/api/products/999999')).status).toBe(404);
  });

  it('updates: a key left out keeps its value, the images are replaced in their new order', async () => {
    const id = card.product.id;
    const res = await put(`/api/products/${id}`, {
      product: { name: 'Spring Blossoms Deluxe', price: '5.5' },
      associated_image_ids: [images[2].id, images[7].id, images[1].id],
      e_greeting_card_data: { message_location: 'top-left', song_3_id: songs[2].id },
    });
    expect(res.status).toBe(200);
    const detail = await res.json();
    expect(detail.product).toMatchObject({ name: 'Spring Blossoms Deluxe', price: 5.5, sku: 'EC-001', description: 'Cherry trees in bloom.', main_image_id: images[0].id });
    expect(detail.tags).toEqual(['spring', 'Flowers']);
    expect(detail.associated_images.map((i: { media_id: number }) => i.media_id)).toEqual([images[2].id, images[7].id, images[1].id]);
    expect(detail.e_greeting_card_data).toMatchObject({ message_location: 'top-left', font_name: 'Dancing Script', song_1_id: songs[0].id, song_3_id: songs[2].id });
    const cleared = await (await put(`/api/products/${id}`, { product: { main_image_id: null, description: null }, tags: [] })).json();
    expect(cleared.product).toMatchObject({ main_image_id: null, description: '' });
    expect(cleared.main_image_path).toBeNull();
    expect(cleared.tags).toEqual([]);
  });

  it('drops the card data when a card becomes another type, and starts a fresh one when it becomes a card', async () => {
    const created = await (await post('/api/products', cardBody({ product: { ...cardBody().product, sku: 'EC-TYPE' } }))).json();
    const id = created.product.id;
    const album = await (await put(`/api/products/${id}`, { product: { product_type_id: 3 } })).json();
    expect(album.e_greeting_card_data).toBeNull();
    expect(await app.sql('select 1 from e_greeting_card where product_id = $1', [id])).toHaveLength(0);
    const again = await (await put(`/api/products/${id}`, { product: { product_type_id: 1 } })).json();
    expect(again.e_greeting_card_data).toMatchObject({ message_location: 'middle-center', font_name: null, song_1_id: null, cover_image_id: null });
    await del(`/api/products/${id}`);
  });

  it('deletes a product with its images and card data', async () => {
    const created = await (await post('/api/products', cardBody({ product: { ...cardBody().product, sku: 'EC-DEL' } }))).json();
    const id = created.product.id;
    expect((await del(`/api/products/${id}`)).status).toBe(204);
    expect(await app.sql('select 1 from product_image where product_id = $1 union all select 1 from e_greeting_card where product_id = $1', [id])).toEqual([]);
    expect((await app.request(`/api/products/${id}`)).status).toBe(404);
  });

  it('answers 401 and 403 to writes by anonymous callers and customers', async () => {
    const before = await rowCounts();
    expect((await post('/api/products', cardBody(), '')).status).toBe(401);
    expect((await post('/api/products', cardBody(), customer)).status).toBe(403);
    expect((await put(`/api/products/${card.product.id}`, cardBody(), customer)).status).toBe(403);
    expect((await del(`/api/products/${card.product.id}`, customer)).status).toBe(403);
    expect((await del(`/api/products/${card.product.id}`, 'not-a-token')).status).toBe(401);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('what products depend on', () => {
  it('keeps a product type that products use (409) and lets it go once they are gone', async () => {
    const type = await (await post('/api/product_types', { name: 'Postcard' })).json();
    const product = await (await post('/api/products', { product: { name: 'Harbour view', price: 2, category_id: albums, product_type_id: type.id } })).json();
    const refused = await del(`/api/product_types/${type.id}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toMatch(/used by 1 product/);
    await del(`/api/products/${product.product.id}`);
    expect((await del(`/api/product_types/${type.id}`)).status).toBe(204);
  });

  it('lets go of deleted media files: the main image and card slots become null, the image leaves the list', async () => {
    const extra = await uploadMedia(app, admin, { images: 2, songs: 1, folder: 'Disposable' });
    const created = await (
      await post('/api/products', cardBody({
        product: { ...cardBody().product, sku: 'EC-MEDIA', main_image_id: extra.images[0].id },
        associated_image_ids: [extra.images[1].id, images[1].id],
        e_greeting_card_data: { ...cardBody().e_greeting_card_data, song_1_id: extra.songs[0].id, cover_image_id: extra.images[1].id },
      }))
    ).json();
    const usages = await app.graphql('query($id: Int!) { mediaFile(id: $id) { usages { kind id label } } }', { id: extra.images[1].id }, admin);
    expect(usages.body.data.mediaFile.usages).toEqual([{ kind: 'product', id: created.product.id, label: 'Spring Blossoms' }]);
    for (const file of [...extra.images, ...extra.songs]) expect((await del(`/api/media/files/${file.id}`)).status).toBe(204);
    const after = await (await app.request(`/api/products/${created.product.id}`)).json();
    expect(after.product.main_image_id).toBeNull();
    expect(after.associated_images.map((i: { media_id: number }) => i.media_id)).toEqual([images[1].id]);
    expect(after.e_greeting_card_data).toMatchObject({ song_1_id: null, song_1_path: null, cover_image_id: null, greeting_image_id: images[4].id });
  });

  it('deletes the products of a category and of its subcategories with it', async () => {
    const top = await restCategory(app, admin, 'Seasonal');
    const sub = await restCategory(app, admin, 'Winter', top);
    const ids: number[] = [];
    for (const [name, category] of [['Snowman', top], ['Frost', sub]] as const) {
      ids.push((await (await post('/api/products', cardBody({ product: { ...cardBody().product, name, sku: null, category_id: category } }))).json()).product.id);
    }
    expect((await del(`/api/categories/${top}`)).status).toBe(204);
    expect(await app.sql('select id from product where id = any($1) union all select product_id from e_greeting_card where product_id = any($1) union all select product_id from product_image where product_id = any($1)', [ids])).toEqual([]);
  });

  it('saves all or nothing: a failure after the product row leaves no row behind', async () => {
    // The card row is written last; make the database refuse it to fail the save half way.
    await app.sql(`create function refuse_card() returns trigger language plpgsql as $$ begin raise exception 'card refused'; end $$`);
    await app.sql('create trigger refuse_card before insert on e_greeting_card for each row execute function refuse_card()');
    const before = await rowCounts();
    try {
      const res = await post('/api/products', cardBody({ product: { ...cardBody().product, sku: 'EC-HALF' } }));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
      expect(await rowCounts()).toEqual(before);
    } finally {
      await app.sql('drop trigger refuse_card on e_greeting_card; drop function refuse_card()');
    }
  });

  it('are storefront reads: 503 while under construction, except for a signed-in admin', async () => {
    await put('/api/settings', { underConstructionMode: 'true' });
    try {
      for (const path of [`/api/products/category/${cards}`, `/api/products/${1}`]) {
        const res = await app.request(path);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeTruthy();
        expect((await app.request(path, { token: customer })).status).toBe(503);
        expect((await app.request(path, { token: admin })).status).not.toBe(503);
      }
      expect((await app.graphql(`{ products(categoryId: ${cards}) { totalCount } }`)).status).toBe(503);
      expect((await app.graphql('{ searchProducts(query: "spring") { totalCount } }')).status).toBe(503);
    } finally {
      await put('/api/settings', { underConstructionMode: 'false' });
    }
  });
});
