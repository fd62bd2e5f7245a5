import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png, uploadRest, wav } from '../helpers/media-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let customer: string;
beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  customer = await app.customer('browser');
});
afterAll(async () => {
  await app?.stop();
});

const post = (path: string, json: unknown, token = admin) => app.request(path, { method: 'POST', json, token });
const put = (path: string, json: unknown, token = admin) => app.request(path, { method: 'PUT', json, token });
const del = (path: string, token = admin) => app.request(path, { method: 'DELETE', token });

describe('product types', () => {
  it('start with the three built-in types, "Gift Card" and "Gift Membership"', async () => {
    const res = await app.request('/api/product_types');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: 1, name: 'E-Greeting Card' },
      { id: 2, name: 'Music Album' },
      { id: 3, name: 'Image Collection' },
      { id: 4, name: 'Gift Card' },
      { id: 5, name: 'Gift Membership' },
    ]);
  });

  it('are added, renamed and deleted by admins; names are trimmed and unique whatever their case', async () => {
    const created = await post('/api/product_types', { name: '  Postcard ' });
    expect(created.status).toBe(201);
    const type = await created.json();
    expect(type).toEqual({ id: 6, name: 'Postcard' });
    expect((await post('/api/product_types', { name: 'POSTCARD' })).status).toBe(409);
    expect((await post('/api/product_types', { name: 'music album' })).status).toBe(409);
    const empty = await post('/api/product_types', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    expect(await (await put(`/api/product_types/${type.id}`, { name: 'Printed postcard' })).json()).toEqual({ id: 6, name: 'Printed postcard' });
    expect((await put('/api/product_types/999', { name: 'Ghost' })).status).toBe(404);
    expect((await del(`/api/product_types/${type.id}`)).status).toBe(204);
    expect((await del(`/api/product_types/${type.id}`)).status).toBe(404);
  });

  it('keep the built-in types', async () => {
    for (const id of [1, 2, 3]) {
      const res = await del(`/api/product_types/${id}`);
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe('CONFLICT');
    }
    expect(await app.sql('select count(*)::int as n from product_type where id <= 3')).toEqual([{ n: 3 }]);
  });

  it('answer 401 and 403 to writes by anonymous callers and customers', async () => {
    expect((await post('/api/product_types', { name: 'X' }, '')).status).toBe(401);
    expect((await post('/api/product_types', { name: 'X' }, customer)).status).toBe(403);
    expect((await put('/api/product_types/1', { name: 'X' }, customer)).status).toBe(403);
    expect((await del('/api/product_types/1', customer)).status).toBe(403);
  });

  it('work over GraphQL too', async () => {
    const created = await app.graphql('mutation { createProductType(name: "Sticker pack") { id name } }', {}, admin);
    const { id } = created.body.data.createProductType;
    expect((await app.graphql('{ productTypes { name } }')).body.data.productTypes.map((t: { name: string }) => t.name)).toContain('Sticker pack');
    const dup = await app.graphql('mutation { createProductType(name: "sticker PACK") { id } }', {}, admin);
    expect(dup.body.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', field: 'name' });
    const builtIn = await app.graphql('mutation { deleteProductType(id: 1) }', {}, admin);
    expect(builtIn.body.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect((await app.graphql(`mutation { deleteProductType(id: ${id}) }`, {}, admin)).body.data.deleteProductType).toBe(true);
  });
});

describe('categories', () => {
  let cards: { id: number };
  let birthday: { id: number };

  it('are created as a tree and listed flat', async () => {
    const res = await post('/api/categories', { name: ' Cards ', parent_id: null });
    expect(res.status).toBe(201);
    cards = await res.json();
    expect(cards).toEqual({ id: expect.any(Number), parent_id: null, name: 'Cards', media_id: null });
    birthday = await (await post('/api/categories', { name: 'Birthday', parent_id: cards.id })).json();
    await post('/api/categories', { name: 'Kids', parent_id: birthday.id });
    const all = await (await app.request('/api/categories/all')).json();
    expect(all.map((c: { name: string; parent_id: number | null }) => [c.name, c.parent_id])).toEqual(
      expect.arrayContaining([['Cards', null], ['Birthday', cards.id], ['Kids', birthday.id]]),
    );
  });

  it('refuse empty names, unknown parents and images that are not images', async () => {
    const empty = await post('/api/categories', { name: '', parent_id: null });
    expect(empty.status).toBe(400);
    expect((await empty.json()).field).toBe('name');
    const orphan = await post('/api/categories', { name: 'Orphan', parent_id: 424242 });
    expect(orphan.status).toBe(400);
    expect((await orphan.json()).field).toBe('parent_id');
    expect(await app.sql("select 1 from category where name = 'Orphan'")).toHaveLength(0);
  });

  it('are renamed and moved, keeping what is left out, and never under themselves', async () => {
    const renamed = await (await put(`/api/categories/${birthday.id}`, { name: 'Birthdays' })).json();
    expect(renamed).toEqual({ id: birthday.id, parent_id: cards.id, name: 'Birthdays', media_id: null });
    const [{ id: kids }] = await app.sql<{ id: number }>("select id from category where name = 'Kids'");
    for (const parent of [birthday.id, kids]) {
      const cycle = await put(`/api/categories/${birthday.id}`, { parent_id: parent });
      expect(cycle.status).toBe(400);
      expect(await cycle.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parent_id' });
    }
    const top = await (await put(`/api/categories/${birthday.id}`, { parent_id: null })).json();
    expect(top.parent_id).toBeNull();
    await put(`/api/categories/${birthday.id}`, { parent_id: cards.id });
    expect((await put('/api/categories/999999', { name: 'Ghost' })).status).toBe(404);
  });

  it('take an image, and lose it when the file is deleted', async () => {
    const folder = await (await post('/api/media/folders', { name: 'Category art' })).json();
    const [image, song] = await (await uploadRest(app, `/api/media/files/${folder.id}`, [
      { name: 'balloons.png', data: await png() },
      { name: 'tune.wav', data: wav() },
    ], admin)).json();
    const refused = await put(`/api/categories/${cards.id}`, { media_id: song.id });
    expect(refused.status).toBe(400);
    expect((await refused.json()).field).toBe('media_id');
    const withImage = await (await put(`/api/categories/${cards.id}`, { media_id: image.id })).json();
    expect(withImage.media_id).toBe(image.id);
    const gql = await app.graphql('{ categories { name imagePath imageThumbnailPath } }');
    expect(gql.body.data.categories.find((c: { name: string }) => c.name === 'Cards')).toEqual({ name: 'Cards', imagePath: image.file_path, imageThumbnailPath: image.thumbnail_path });
    const usages = await app.graphql('query($id: Int!) { mediaFile(id: $id) { usages { kind label } } }', { id: image.id }, admin);
    expect(usages.body.data.mediaFile.usages).toEqual([{ kind: 'category', label: 'Cards' }]);
    expect((await del(`/api/media/files/${image.id}`)).status).toBe(204);
    expect(await app.sql('select media_id from category where id = $1', [cards.id])).toEqual([{ media_id: null }]);
  });

  it('answer 401 and 403 to writes by anonymous callers and customers', async () => {
    expect((await post('/api/categories', { name: 'X' }, '')).status).toBe(401);
    expect((await post('/api/categories', { name: 'X' }, customer)).status).toBe(403);
    expect((await put(`/api/categories/${cards.id}`, { name: 'X' }, customer)).status).toBe(403);
    expect((await del(`/api/categories/${cards.id}`, customer)).status).toBe(403);
  });

  it('are deleted with all their subcategories', async () => {
    expect((await del(`/api/categories/${cards.id}`)).status).toBe(204);
    expect(await app.sql("select name from category where name in ('Cards', 'Birthdays', 'Kids')")).toEqual([]);
    expect((await del(`/api/categories/${cards.id}`)).status).toBe(404);
  });

  it('work over GraphQL too', async () => {
    const created = await app.graphql('mutation { createCategory(input: { name: "Weddings" }) { id name parentId } }', {}, admin);
    const { id } = created.body.data.createCategory;
    const child = await app.graphql(`mutation { createCategory(input: { name: "Anniversaries", parentId: ${id} }) { id parentId } }`, {}, admin);
    expect(child.body.data.createCategory.parentId).toBe(id);
    const cycle = await app.graphql(`mutation { updateCategory(id: ${id}, input: { parentId: ${child.body.data.createCategory.id} }) { id } }`, {}, admin);
    expect(cycle.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parentId' });
    const forbidden = await app.graphql(`mutation { deleteCategory(id: ${id}) }`, {}, customer);
    expect(forbidden.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await app.graphql(`mutation { deleteCategory(id: ${id}) }`, {}, admin)).body.data.deleteCategory).toBe(true);
  });

  it('are read as a whole tree in one query, whatever its size', async () => {
    let parent: number | null = null;
    for (let i = 0; i < 12; i++) parent = (await (await post('/api/categories', { name: `Level ${i}`, parent_id: i % 3 ? parent : null })).json()).id;
    const queries = await recordQueries(app, async () => {
      const res = await app.graphql('{ categories { id name parentId mediaId imagePath imageThumbnailPath } }');
      expect(res.body.data.categories.length).toBeGreaterThanOrEqual(12);
    });
    expect(selects(queries)).toHaveLength(1);
  });

  it('are storefront reads: 503 while under construction, except for a signed-in admin', async () => {
    await put('/api/settings', { underConstructionMode: 'true' });
    try {
      for (const path of ['/api/categories/all', '/api/product_types']) {
        const res = await app.request(path);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('3600');
        expect((await app.request(path, { token: customer })).status).toBe(503);
        expect((await app.request(path, { token: admin })).status).toBe(200);
      }
      expect((await app.graphql('{ categories { id } }')).status).toBe(503);
    } finally {
      await put('/api/settings', { underConstructionMode: 'false' });
    }
  });
});
