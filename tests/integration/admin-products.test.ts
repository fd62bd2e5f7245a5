import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The console's products at scale (contract section 16): every product whatever its status, searched
 * by words or SKU, filtered and sorted, in keyset pages (GraphQL `adminProducts`, REST `GET
 * /api/admin/products`); bulk actions on chosen products, all or nothing, each product audited.
 */
let app: TestApp;
let admin: string;
let christmas: number;
let birthday: number;
const ids = new Map<string, number>();

// Name, price, SKU, status, category, tags.
const PRODUCTS = [
  ['Carol Singers', '4.00', 'XM-001', 'active', 'christmas', ['winter']],
  ['Snowy Village', '5.50', 'XM-002', 'draft', 'christmas', []],
  ['Reindeer Games', '3.25', null, 'archived', 'christmas', ['winter', 'fun']],
  ['Balloon Party', '6.00', 'BD-001', 'active', 'birthday', []],
] as const;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  christmas = await restCategory(app, admin, 'Christmas');
  birthday = await restCategory(app, admin, 'Birthday');
  for (const [name, price, sku, status, category, tags] of PRODUCTS) {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name, price, sku, status, category_id: category === 'christmas' ? christmas : birthday, product_type_id: 2 }, tags } });
    expect(res.status).toBe(201);
    ids.set(name, (await res.json()).product.id);
  }
});
afterAll(async () => {
  await app?.stop();
});

const list = async (query: string, token = admin) => {
  const res = await app.request(`/api/admin/products?${query}`, { token });
  return { status: res.status, body: await res.json() };
};
const names = async (query: string) => (await list(query)).body.items.map((i: { name: string }) => i.name);
const UUID = /^[0-9a-f-]{36}$/;
const bulk = (json: unknown, token = admin) => app.request('/api/admin/products/bulk', { method: 'POST', token, json });
const rows = () => app.sql<{ name: string; status: string; price: string; category_id: number; tags: string[] }>('select name, status, price::text as price, category_id, tags from product order by id');

describe('the console list of every product', () => {
  it('lists every status, searches by words or SKU, filters and sorts', async () => {
    expect(await names('')).toEqual(['Balloon Party', 'Carol Singers', 'Reindeer Games', 'Snowy Village']);
    expect(await names('status=draft')).toEqual(['Snowy Village']);
    expect(await names(`category_id=${christmas}&sort=price_desc`)).toEqual(['Snowy Village', 'Carol Singers', 'Reindeer Games']);
    expect(await names('q=xm-002')).toEqual(['Snowy Village']);
    expect(await names('q=winter')).toEqual(['Carol Singers', 'Reindeer Games']);
    expect(await names('q=%25')).toEqual([]);
    const { body } = await list('q=carol');
    expect(body).toEqual({
      items: [{ id: ids.get('Carol Singers'), name: 'Carol Singers', sku: 'XM-001', price: 4, compare_at_price: null, status: 'active', category_id: christmas, product_type_id: 2, tags: ['winter'], thumbnail_path: null, updated_at: expect.any(String) }],
      next_cursor: null,
    });
    const gql = await app.graphql(`query($s: ProductStatus) { adminProducts(status: $s, sort: UPDATED) { totalCount edges { node { name status } } } }`, { s: 'ARCHIVED' }, admin);
    expect(gql.body.data.adminProducts).toEqual({ totalCount: 1, edges: [{ node: { name: 'Reindeer Games', status: 'ARCHIVED' } }] });
  });

  it('pages by keyset without gaps or repeats, last changed first', async () => {
    const seen: string[] = [];
    let after = '';
    for (let guard = 0; guard < 5; guard++) {
      const { body } = await list(`sort=updated&first=3${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      seen.push(...body.items.map((i: { name: string }) => i.name));
      if (!body.next_cursor) break;
      after = body.next_cursor;
    }
    expect(seen).toEqual(['Balloon Party', 'Reindeer Games', 'Snowy Village', 'Carol Singers']);
  });

  it('answers 400 on a bad filter, 401 signed out and 403 to a customer', async () => {
    for (const [query, field] of [['status=hidden', 'status'], ['sort=cheapest', 'sort'], ['type_id=x', 'type_id'], ['on_sale=maybe', 'on_sale']]) {
      const { status, body } = await list(query!);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect((await app.request('/api/admin/products')).status).toBe(401);
    expect((await list('', await app.customer())).status).toBe(403);
  });
});

describe('bulk actions', () => {
  it('archives, publishes, moves, tags and reprices the chosen products, each with its audit entry', async () => {
    const chosen = [ids.get('Carol Singers')!, ids.get('Snowy Village')!];
    const audits = async () => Number((await app.sql<{ n: string }>(`select count(*) as n from audit_entry where entity = 'product'`))[0]!.n);
    const before = await audits();

    expect(await (await bulk({ ids: chosen, action: { type: 'publish' } })).json()).toEqual({ updated: 2, undo_id: expect.stringMatching(UUID) });
    expect((await rows()).filter((r) => r.status === 'active').map((r) => r.name)).toEqual(['Carol Singers', 'Snowy Village', 'Balloon Party']);
    expect(await (await bulk({ ids: chosen, action: { type: 'move', category_id: birthday } })).json()).toEqual({ updated: 2, undo_id: expect.stringMatching(UUID) });
    expect(await (await bulk({ ids: chosen, action: { type: 'add_tag', tag: 'Sale' } })).json()).toEqual({ updated: 2, undo_id: null });
    expect(await (await bulk({ ids: chosen, action: { type: 'remove_tag', tag: 'WINTER' } })).json()).toEqual({ updated: 2, undo_id: null });
    // 4.00 and 5.50 raised by 12.5 %: 4.50 and 6.19 (6.1875 to the cent).
    expect(await (await bulk({ ids: chosen, action: { type: 'price', percent: 12.5 } })).json()).toEqual({ updated: 2, undo_id: expect.stringMatching(UUID) });
    const changed = (await rows()).filter((r) => chosen.includes(ids.get(r.name)!));
    expect(changed).toEqual([
      { name: 'Carol Singers', status: 'active', price: '4.50', category_id: birthday, tags: ['Sale'] },
      { name: 'Snowy Village', status: 'active', price: '6.19', category_id: birthday, tags: ['Sale'] },
    ]);
    expect(await (await bulk({ ids: chosen, action: { type: 'price', price: '3.00' } })).json()).toEqual({ updated: 2, undo_id: expect.stringMatching(UUID) });
    expect(await (await bulk({ ids: chosen, action: { type: 'archive' } })).json()).toEqual({ updated: 2, undo_id: expect.stringMatching(UUID) });
    expect((await rows()).filter((r) => chosen.includes(ids.get(r.name)!)).map((r) => [r.price, r.status])).toEqual([['3.00', 'archived'], ['3.00', 'archived']]);
    // One entry per product per action.
    expect(await audits()).toBe(before + 7 * 2);
    const [entry] = await app.sql<{ summary: string; actor_name: string }>(`select summary, actor_name from audit_entry where entity = 'product' and entity_id = $1 and summary like '%price%' order by id limit 1`, [String(chosen[0])]);
    expect(entry).toEqual({ summary: '“Carol Singers” (bulk): price “4.00” → “4.50”', actor_name: 'admin' });
    // The tag is searchable at once, and the shop no longer shows archived products.
    expect(await names('q=sale')).toEqual(['Carol Singers', 'Snowy Village']);
    const shop = await app.graphql(`{ searchProducts { edges { node { name } } } }`);
    expect(shop.body.data.searchProducts.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['Balloon Party']);
  });

  it('changes nothing when one id is unknown, a price would break a rule, or the action is not valid', async () => {
    const before = await rows();
    const audits = await app.sql('select count(*) from audit_entry');
    const one = ids.get('Balloon Party')!;
    const cases: [unknown, string][] = [
      [{ ids: [one, 999999], action: { type: 'archive' } }, 'ids'],
      [{ ids: [], action: { type: 'archive' } }, 'ids'],
      [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1), action: { type: 'archive' } }, 'ids'],
      [{ ids: [one], action: { type: 'explode' } }, 'action.type'],
      [{ ids: [one], action: { type: 'move', category_id: 999999 } }, 'action.category_id'],
      [{ ids: [one], action: { type: 'price' } }, 'action.price'],
      [{ ids: [one], action: { type: 'price', percent: -100 } }, 'action.percent'],
      [{ ids: [one], action: { type: 'add_tag', tag: '  ' } }, 'action.tag'],
    ];
    for (const [json, field] of cases) {
      const res = await bulk(json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    // A compare-at price is a ceiling: a raise past it is refused for the whole batch.
    expect((await app.request(`/api/products/${one}`, { method: 'PUT', token: admin, json: { product: { compare_at_price: 7 } } })).status).toBe(200);
    const ceiling = await bulk({ ids: [one, ids.get('Carol Singers')], action: { type: 'price', percent: 50 } });
    expect(ceiling.status).toBe(400);
    expect((await ceiling.json()).message).toContain('“Balloon Party” would not be below its compare-at price (7.00)');
    expect(await rows()).toEqual(before);
    expect(await app.sql('select count(*) from audit_entry')).toEqual([{ count: String(Number((audits[0] as { count: string }).count) + 1) }]);
    expect((await bulk({ ids: [one], action: { type: 'archive' } }, await app.customer())).status).toBe(403);
  });

  it('deletes the chosen products over GraphQL', async () => {
    const { body } = await app.graphql(`mutation($ids: [Int!]!) { bulkUpdateProducts(ids: $ids, action: { type: DELETE }) { updated } }`, { ids: [ids.get('Reindeer Games')] }, admin);
    expect(body.data.bulkUpdateProducts).toEqual({ updated: 1 });
    expect((await rows()).map((r) => r.name)).not.toContain('Reindeer Games');
  });
});

describe('undo of a bulk action', () => {
  const undo = (undoId: string, token = admin) => app.request(`/api/admin/products/bulk/${undoId}/undo`, { method: 'POST', token });
  const product = async (name: string, price: string, status = 'active') => {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name, price, status, category_id: christmas, product_type_id: 2 } } });
    expect(res.status).toBe(201);
    return (await res.json()).product.id as number;
  };
  const state = async (chosen: number[]) =>
    app.sql<{ name: string; status: string; price: string; category_id: number }>('select name, status, price::text as price, category_id from product where id = any($1::int[]) order by id', [chosen]);
  const christmasNames = async () =>
    (await app.graphql(`query($c: Int) { searchProducts(categoryId: $c) { edges { node { name } } } }`, { c: christmas })).body.data.searchProducts.edges.map((e: { node: { name: string } }) => e.node.name);

  it('gives prices back, except to products changed since or that can no longer take the old price; once, and for a day', async () => {
    const chosen = [await product('Undo One', '2.00'), await product('Undo Two', '3.00'), await product('Undo Three', '4.00')];
    const { undo_id: undoId } = await (await bulk({ ids: chosen, action: { type: 'price', percent: -50 } })).json();
    expect(undoId).toMatch(UUID);
    // Changed by hand since: kept. A compare-at price the old price is not below: kept.
    expect((await app.request(`/api/products/${chosen[1]}`, { method: 'PUT', token: admin, json: { product: { price: 2.22 } } })).status).toBe(200);
    expect((await app.request(`/api/products/${chosen[2]}`, { method: 'PUT', token: admin, json: { product: { compare_at_price: 3 } } })).status).toBe(200);

    expect((await undo(undoId, await app.customer())).status).toBe(403);
    expect((await app.request(`/api/admin/products/bulk/${undoId}/undo`, { method: 'POST' })).status).toBe(401);
    const res = await undo(undoId);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ restored: 1, skipped: 2 });
    expect((await state(chosen)).map((r) => [r.name, r.price])).toEqual([['Undo One', '2.00'], ['Undo Two', '2.22'], ['Undo Three', '2.00']]);
    const entries = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'product' and entity_id = any($1::text[]) and summary like '%undo%'`, [chosen.map(String)]);
    expect(entries).toEqual([{ summary: '“Undo One” (undo of a bulk change): price “1.00” → “2.00”' }]);

    const again = await undo(undoId);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'CONFLICT', message: 'This change was undone already.' });
    expect((await undo(crypto.randomUUID())).status).toBe(404);
    expect((await undo('not-a-change')).status).toBe(404);

    // A day later the change cannot be undone, and nothing moves.
    const { undo_id: late } = await (await bulk({ ids: chosen, action: { type: 'price', price: '1.50' } })).json();
    await app.sql(`update product_bulk_change set created_at = now() - interval '25 hours' where id = $1`, [late]);
    const old = await undo(late);
    expect(old.status).toBe(409);
    expect((await old.json()).message).toBe('A bulk change can be undone for 24 hours; this one is older.');
    expect((await state(chosen)).map((r) => r.price)).toEqual(['1.50', '1.50', '1.50']);
  });

  it('moves products back and archived ones back to what they were (a draft stays a draft), and the shop shows it at once', async () => {
    const chosen = [await product('Undo Draft', '2.00', 'draft'), await product('Undo Live', '3.00')];
    expect(await christmasNames()).toContain('Undo Live');
    const archived = await (await bulk({ ids: chosen, action: { type: 'archive' } })).json();
    expect(await christmasNames()).not.toContain('Undo Live');
    const { body } = await app.graphql(`mutation($id: String!) { undoBulkUpdateProducts(undoId: $id) { restored skipped } }`, { id: archived.undo_id }, admin);
    expect(body.data.undoBulkUpdateProducts).toEqual({ restored: 2, skipped: 0 });
    expect((await state(chosen)).map((r) => r.status)).toEqual(['draft', 'active']);
    expect(await christmasNames()).toContain('Undo Live');

    const moved = await app.graphql(`mutation($ids: [Int!]!, $c: Int!) { bulkUpdateProducts(ids: $ids, action: { type: MOVE, categoryId: $c }) { updated undoId } }`, { ids: chosen, c: birthday }, admin);
    expect(await christmasNames()).not.toContain('Undo Live');
    const back = await app.graphql(`mutation($id: String!) { undoBulkUpdateProducts(undoId: $id) { restored skipped } }`, { id: moved.body.data.bulkUpdateProducts.undoId }, admin);
    expect(back.body.data.undoBulkUpdateProducts).toEqual({ restored: 2, skipped: 0 });
    expect((await state(chosen)).map((r) => r.category_id)).toEqual([christmas, christmas]);
    expect(await christmasNames()).toContain('Undo Live');
  });
});
