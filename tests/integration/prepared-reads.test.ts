import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productDetailJson } from '../../server/src/modules/catalogue/catalogue-reads.js';
import { loadStorefrontProducts } from '../../server/src/modules/catalogue/storefront-product.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The storefront's hot reads run as prepared statements (server/src/db/prepared.ts). */
let app: TestApp;
let admin: string;
const ids: number[] = [];

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  const category = await restCategory(app, admin, 'Prepared');
  for (const name of ['First', 'Second']) {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name, description: `${name} album`, price: 4, category_id: category, product_type_id: 2 }, tags: [] } });
    expect(res.status).toBe(201);
    ids.push((await res.json()).product.id);
  }
});
afterAll(async () => {
  await app?.stop();
});

describe('prepared storefront reads', () => {
  it('read a product in one statement with its values as parameters, logged like the ORM queries', async () => {
    const queries = await recordQueries(app, async () => {
      const res = await app.request(`/api/products/${ids[0]}`);
      expect(res.status).toBe(200);
      expect((await res.json()).product.name).toBe('First');
    });
    const reads = selects(queries).filter((q) => q.includes('from product p'));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('p.id = $1');
    expect(reads[0]).not.toMatch(new RegExp(`p\\.id = ${ids[0]}\\b`));
    // Named statements are planned once per connection (the pool's sessions say so).
    expect(await app.orm.em.fork().getConnection().execute(`select current_setting('plan_cache_mode') as mode`)).toEqual([{ mode: 'force_generic_plan' }]);
  });

  it('give the same answers many times over (the generic plan) and 404 for an unknown id', async () => {
    for (let i = 0; i < 8; i++) expect((await (await app.request(`/api/products/${ids[i % 2]}`)).json()).product.name).toBe(i % 2 ? 'Second' : 'First');
    expect((await app.request('/api/products/999999')).status).toBe(404);
    const found = await loadStorefrontProducts(app.orm.em.fork(), [ids[1]!, 999_999, ids[0]!]);
    expect([...found.keys()].sort()).toEqual([...ids].sort());
    expect(found.get(ids[1]!)!.product.name).toBe('Second');
    expect(found.get(ids[0]!)!.categoryName).toBe('Prepared');
  });

  it('see the writes of the transaction they run in, as named statements of its connection', async () => {
    const em = app.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await tx.getConnection().execute('update product set name = ? where id = ?', ['Renamed inside', ids[0]], 'run', tx.getTransactionContext());
        expect(JSON.parse((await productDetailJson(tx, ids[0]!, 'en'))!).product.name).toBe('Renamed inside');
        expect((await loadStorefrontProducts(tx, [ids[0]!])).get(ids[0]!)!.product.name).toBe('Renamed inside');
        // As named statements of the transaction's own connection, planned once there.
        const named = await tx.getConnection().execute<{ name: string }[]>('select name from pg_prepared_statements', [], 'all', tx.getTransactionContext());
        expect(named.map((row) => row.name)).toEqual(expect.arrayContaining(['product_detail', 'storefront_products']));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(JSON.parse((await productDetailJson(app.orm.em.fork(), ids[0]!, 'en'))!).product.name).toBe('First');
  });
});
