import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FEED_APPLICATION_NAME } from '../../server/src/core/change-feed.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startSilentProxy, type SilentProxy } from '../helpers/silent-proxy.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A change feed whose connection dies without a word (issue 24, item 4): the app reaches PostgreSQL
 * through a proxy that can silence a connection as a NAT or a load balancer would (no error, no
 * close, bytes just stop). Once the feed's connection goes silent, the process must notice within
 * seconds (its heartbeat does not come back), read from the database instead of its cache, and
 * listen again on a new connection.
 */

let proxy: SilentProxy;
let app: TestApp;
let admin: string;
let album: number;

const name = async () => {
  const res = await app.request(`/api/products/${album}`);
  expect(res.status).toBe(200);
  return (await res.json()).product.name as string;
};
const fromCache = () => app.cachedReads!.stats.served.product;

beforeAll(async () => {
  const cluster = new URL(inject('pgAdminUrl'));
  proxy = await startSilentProxy({ host: cluster.hostname, port: Number(cluster.port) });
  app = await startTestApp({}, {}, { databaseUrl: (url) => proxy.url(url) });
  admin = await app.login();
  const shelf = await restCategory(app, admin, 'Heartbeat');
  const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Steady Album', price: 5, category_id: shelf, product_type_id: 2 } } });
  album = (await res.json()).product.id;
  await app.request('/api/settings');
});
afterAll(async () => {
  await app?.stop();
  await proxy?.close();
});

describe('the change feed, silenced', () => {
  it('is noticed within seconds: the process reads from the database, then listens again and caches again', async () => {
    expect(await name()).toBe('Steady Album');
    const before = fromCache();
    expect(await name()).toBe('Steady Album');
    expect(fromCache()).toBe(before + 1);

    expect(proxy.silence(FEED_APPLICATION_NAME)).toBe(1);
    // A change the silenced listener never hears about (made behind the shop's back, as another process's write would be).
    await app.sql(`update product set name = 'Changed unheard' where id = $1`, [album]);
    const silencedAt = Date.now();
    await expect.poll(name, { timeout: 15_000, interval: 200 }).toBe('Changed unheard');
    // Heartbeat every 2 s, missed after 3 s: well within ten seconds even on a busy machine.
    expect(Date.now() - silencedAt).toBeLessThan(10_000);

    // A new listener, through the proxy again; the cache is back on, starting empty.
    await expect.poll(() => app.services.cache.active, { timeout: 15_000 }).toBe(true);
    await name();
    const again = fromCache();
    expect(await name()).toBe('Changed unheard');
    expect(fromCache()).toBe(again + 1);
    // And it hears changes again: a write through the shop is seen at once.
    expect((await app.request(`/api/products/${album}`, { method: 'PUT', token: admin, json: { product: { name: 'Heard again' } } })).status).toBe(200);
    expect(await name()).toBe('Heard again');
  });

  it('sees the under-construction switch turned on behind a silenced listener within seconds', async () => {
    await expect.poll(() => app.services.cache.active, { timeout: 15_000 }).toBe(true);
    // Cached: the product and the settings, as a shopper reads them.
    for (let i = 0; i < 2; i++) expect((await app.request(`/api/products/${album}`)).status).toBe(200);
    expect(String((await (await app.request('/api/settings')).json()).underConstructionMode)).toBe('false');
    expect(proxy.silence(FEED_APPLICATION_NAME)).toBe(1);
    await app.sql(`update setting set value = 'true' where key = 'underConstructionMode'`);
    const silencedAt = Date.now();
    await expect.poll(async () => (await app.request(`/api/products/${album}`)).status, { timeout: 15_000, interval: 200 }).toBe(503);
    expect(Date.now() - silencedAt).toBeLessThan(10_000);
    expect(String((await (await app.request('/api/settings')).json()).underConstructionMode)).toBe('true');
    await app.sql(`update setting set value = 'false' where key = 'underConstructionMode'`);
    await expect.poll(async () => (await app.request(`/api/products/${album}`)).status, { timeout: 15_000, interval: 200 }).toBe(200);
  });

  it('ends the silenced listener on the server, so that writes do not wait for its acknowledgement', async () => {
    const listeners = () => app.sql<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 and datname = current_database()`, [FEED_APPLICATION_NAME]);
    await expect.poll(async () => (await listeners()).length, { timeout: 15_000 }).toBe(1);
    const started = Date.now();
    expect((await app.request(`/api/products/${album}`, { method: 'PUT', token: admin, json: { product: { name: 'Quick write' } } })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
