import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACKS_CHANNEL, CHANGES_CHANNEL, FEED_APPLICATION_NAME, HEARTBEAT } from '../../server/src/core/change-feed.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startForgetfulProxy } from '../helpers/forgetful-proxy.js';
import type { SilentProxy } from '../helpers/silent-proxy.js';
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
/**
 * How long a silenced listener may go unnoticed here. The heartbeat notices within its interval,
 * its time limit and a tick (2 + 3 + 1 s), and a new listener follows half a second later: about
 * 6.5 s, five times less than this even on a busy machine. Without the heartbeat only TCP keepalive
 * (minutes) or an entry's own time limit (5 minutes) would end it: ten times more than this.
 */
const NOTICED_WITHIN_MS = 30_000;

beforeAll(async () => {
  const cluster = new URL(inject('pgAdminUrl'));
  proxy = await startForgetfulProxy({ host: cluster.hostname, port: Number(cluster.port) });
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
    // The timing NOTICED_WITHIN_MS is reckoned from.
    expect(HEARTBEAT).toEqual({ intervalMs: 2000, timeoutMs: 3000 });
    await expect.poll(name, { timeout: NOTICED_WITHIN_MS, interval: 200 }).toBe('Changed unheard');

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
    await expect.poll(async () => (await app.request(`/api/products/${album}`)).status, { timeout: NOTICED_WITHIN_MS, interval: 200 }).toBe(503);
    expect(String((await (await app.request('/api/settings')).json()).underConstructionMode)).toBe('true');
    await app.sql(`update setting set value = 'false' where key = 'underConstructionMode'`);
    await expect.poll(async () => (await app.request(`/api/products/${album}`)).status, { timeout: 15_000, interval: 200 }).toBe(200);
  });

  it('ends the silenced listener on the server, so that writes do not wait for its acknowledgement', async () => {
    const listeners = () => app.sql<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 and datname = current_database()`, [FEED_APPLICATION_NAME]);
    // The listener silenced last has been noticed and a new one listens; the silenced one, which its
    // server never heard go, has been ended there.
    await expect.poll(() => app.services.cache.active, { timeout: NOTICED_WITHIN_MS }).toBe(true);
    await expect.poll(async () => (await listeners()).length, { timeout: 15_000 }).toBe(1);
    // What the database carries between the processes, heard by a connection of the test's own.
    const watcher = new pg.Client({ connectionString: inject('pgAdminUrl').replace(/\/postgres$/, `/${app.databaseName}`) });
    const changes: string[] = [];
    const acks: string[] = [];
    watcher.on('notification', (message) => {
      // A change the database announces itself (a trigger's) has no id and waits for nobody.
      if (message.channel === CHANGES_CHANNEL) changes.push(...[JSON.parse(message.payload!).id].filter(Boolean));
      else acks.push(message.payload!);
    });
    await watcher.connect();
    try {
      await watcher.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${ACKS_CHANNEL}`);
      expect((await app.request(`/api/products/${album}`, { method: 'PUT', token: admin, json: { product: { name: 'Quick write' } } })).status).toBe(200);
      // A writer waits for as many acknowledgements as there are listeners when it announces its
      // change (or for ACK_TIMEOUT_MS). One listener is left, and it acknowledged each change: the
      // write was answered with nothing left to wait for, whatever the time the machine took.
      await expect.poll(() => changes.length, { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => changes.map((id) => acks.filter((ack) => ack === id).length), { timeout: 15_000 }).toEqual(changes.map(() => 1));
      expect((await listeners()).length).toBe(1);
    } finally {
      await watcher.end();
    }
  });
});
