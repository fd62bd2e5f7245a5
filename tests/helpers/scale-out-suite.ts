import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsList } from '../../migrations/index.js';
import { DEMO_CATEGORIES } from '../../server/src/demo/demo-catalogue.js';
import { parseVariantKey } from '../../server/src/modules/media/image-variants.js';
import { filesBelow, stopAllAppProcesses } from './app-process.js';
import { bytesOf, keyOf, login, nonMailFiles, startCluster, START_TIMEOUT_MS, type Cluster } from './cluster.js';
import { filesForm, png, wav } from './media-fixtures.js';
import { PAY_OK, PLACE_ORDER } from './order-fixtures.js';

/** What every process of a scaled-out shop sees of what the others did: the same tests for any mix of roles. */
export function scaleOutSuite(roles: string[]): void {
  const count = roles.filter((role) => role !== 'worker').length;
  describe(`${roles.length} processes on one database and one bucket (${roles.join(', ')})`, () => {
    let cluster: Cluster;
    let token: string;
    beforeAll(async () => {
      cluster = await startCluster(roles);
    }, START_TIMEOUT_MS + 60_000);
    afterAll(async () => {
      await cluster?.stop();
      await stopAllAppProcesses();
    });

    it('start together on an empty database: migrations, the admin, the signing secret and the demo catalogue happen exactly once', async () => {
      expect(cluster.web).toHaveLength(count);
      for (const p of cluster.all) expect(p.child.exitCode, p.output()).toBeNull();
      const outputs = cluster.all.map((p) => p.output());
      expect(outputs.filter((o) => o.includes('"msg":"migrations applied"'))).toHaveLength(1);
      expect(outputs.filter((o) => o.includes('"msg":"admin user created"'))).toHaveLength(1);
      expect(outputs.filter((o) => o.includes('"msg":"demo catalogue added"'))).toHaveLength(1);

      const migrations = await cluster.sql<{ name: string }>('select name from mikro_orm_migrations order by id');
      expect(migrations.map((m) => m.name)).toEqual(migrationsList.map((m) => m.name));
      expect(await cluster.sql(`select username from app_user where role = 'admin'`)).toEqual([{ username: 'admin' }]);
      expect(await cluster.sql('select count(*)::int as n from category')).toEqual([{ n: DEMO_CATEGORIES.length }]);
      expect(await cluster.sql(`select value from setting where key = 'demoCatalogue'`)).toEqual([{ value: 'seeded' }]);
      // The signing secret lives in the database, not in one process's DATA_DIR.
      expect(await cluster.sql(`select length(value) > 40 as long from setting where key = 'jwtSecret'`)).toEqual([{ long: true }]);

      // Every demo file is in the bucket, and no process wrote a media byte (nor a secret) to its DATA_DIR.
      const files = await cluster.sql<{ file_path: string; thumbnail_path: string | null }>('select file_path, thumbnail_path from media_file');
      expect(files.length).toBeGreaterThan(10);
      const expected = files.flatMap((f) => [f.file_path, f.thumbnail_path]).filter((p): p is string => Boolean(p)).map(keyOf);
      // Beside them, only the responsive sizes of those images (made in the background after storing).
      const keys = await cluster.bucket.keys();
      expect(keys.filter((key) => !parseVariantKey(key))).toEqual(expected.sort());
      for (const key of keys.filter((k) => parseVariantKey(k))) expect(expected, key).toContain(parseVariantKey(key)!.originalKey);
      for (const p of cluster.all) expect(nonMailFiles(p), p.name).toEqual([]);
      for (const p of cluster.all) expect(await (await p.request('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', media: 'ok' } });
    });

    it('share sessions: signed in on one, the token works on every other; signed out on one, it works nowhere', async () => {
      token = await login(cluster.at(0));
      for (let i = 1; i <= count; i++) {
        const me = await cluster.at(i).request('/api/me', { token });
        expect(me.status, cluster.at(i).name).toBe(200);
        expect(await me.json()).toMatchObject({ username: 'admin', role: 'admin' });
      }
      const leaving = await login(cluster.at(1));
      expect((await cluster.at(0).request('/api/me', { token: leaving })).status).toBe(200);
      expect((await cluster.at(1).request('/api/logout', { method: 'POST', token: leaving })).status).toBe(204);
      for (let i = 0; i < count; i++) expect((await cluster.at(i).request('/api/me', { token: leaving })).status, cluster.at(i).name).toBe(401);
    });

    it('share media: uploaded through one, served whole and in ranges by the others, deleted through another', async () => {
      const folder = await cluster.at(0).request('/api/media/folders', { method: 'POST', token, json: { name: `Shared ${count}`, parent_id: null } });
      const { id: folderId } = (await folder.json()) as { id: number };
      const imageBytes = await png(640, 480);
      const songBytes = wav(1);
      const upload = await cluster.at(0).request(`/api/media/files/${folderId}`, { method: 'POST', token, body: filesForm([{ name: 'shared.png', data: imageBytes }, { name: 'shared.wav', data: songBytes }]) });
      expect(upload.status).toBe(201);
      const [image, song] = (await upload.json()) as { id: number; file_path: string; thumbnail_path: string | null }[];

      const whole = await cluster.at(1).request(`/api/${image!.file_path}`);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('image/png');
      expect(whole.headers.get('etag')).toBe(`"${keyOf(image!.file_path)}"`);
      expect((await bytesOf(whole)).equals(imageBytes)).toBe(true);
      const thumbnail = await cluster.at(count - 1).request(`/api/${image!.thumbnail_path}`);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      const range = await cluster.at(count - 1).request(`/api/${song!.file_path}`, { headers: { range: 'bytes=44-1043' } });
      expect(range.status).toBe(206);
      expect(range.headers.get('content-range')).toBe(`bytes 44-1043/${songBytes.length}`);
      expect((await bytesOf(range)).equals(songBytes.subarray(44, 1044))).toBe(true);

      expect((await cluster.at(1).request(`/api/media/files/${image!.id}`, { method: 'DELETE', token })).status).toBe(204);
      for (let i = 0; i < count; i++) {
        expect((await cluster.at(i).request(`/api/${image!.file_path}`)).status, cluster.at(i).name).toBe(404);
        expect((await cluster.at(i).request(`/api/${image!.thumbnail_path}`)).status).toBe(404);
      }
      const keys = await cluster.bucket.keys();
      expect(keys).not.toContain(keyOf(image!.file_path));
      expect(keys).not.toContain(keyOf(image!.thumbnail_path!));
      expect(keys).toContain(keyOf(song!.file_path));
      for (const p of cluster.all) expect(nonMailFiles(p), p.name).toEqual([]);
    });

    it('see the under-construction switch at once, whichever process set it', async () => {
      const shopper = (i: number) => cluster.at(i).request('/api/categories/all');
      try {
        expect((await cluster.at(0).request('/api/settings', { method: 'PUT', token, json: { underConstructionMode: 'true' } })).status).toBe(200);
        for (let i = 1; i <= count; i++) {
          const res = await shopper(i);
          expect(res.status, cluster.at(i).name).toBe(503);
          expect(res.headers.get('retry-after')).toBe('3600');
          expect((await cluster.at(i).request('/api/categories/all', { token })).status).toBe(200);
        }
      } finally {
        expect((await cluster.at(1).request('/api/settings', { method: 'PUT', token, json: { underConstructionMode: 'false' } })).status).toBe(200);
      }
      for (let i = 0; i < count; i++) expect((await shopper(i)).status, cluster.at(i).name).toBe(200);
    });

    it('make one order of one idempotency key sent to every process at once, and send its receipt once, from where jobs run', async () => {
      const [album] = await cluster.sql<{ id: number }>('select id from product where product_type_id = 2 order by id limit 1');
      const input = { idempotencyKey: crypto.randomUUID(), purchaserEmail: 'scale@example.com', lines: [{ productId: album!.id, quantity: 1 }], payment: PAY_OK };
      const answers = await Promise.all(
        cluster.web.map(async (p) => {
          const res = await p.request('/graphql', { method: 'POST', json: { query: PLACE_ORDER, variables: { input } } });
          return (await res.json()) as { data?: { placeOrder: { id: string } }; errors?: unknown };
        }),
      );
      for (const answer of answers) expect(answer.errors).toBeUndefined();
      const ids = new Set(answers.map((a) => a.data!.placeOrder.id));
      expect(ids.size).toBe(1);
      expect(await cluster.sql('select count(*)::int as n from "order" where idempotency_key = $1', [input.idempotencyKey])).toEqual([{ n: 1 }]);

      // The receipt goes out once, written by a process that runs jobs; web-only processes send nothing.
      const receipts = () => cluster.all.flatMap((p, i) => filesBelow(path.join(p.dataDir, 'outbox')).map((name) => ({ role: roles[i], name })));
      const jobs = () => cluster.sql<{ status: string }>(`select status from mail_job where subject = 'order:' || $1`, [[...ids][0]]);
      await expect.poll(jobs, { timeout: 30_000 }).toEqual([{ status: 'sent' }]);
      expect(receipts()).toHaveLength(1);
      expect(receipts()[0]!.role).not.toBe('web');
    });

    it('see a write through one process at the very next read through any other, over REST and GraphQL, though each keeps a read cache', async () => {
      const [product] = await cluster.sql<{ id: number; category_id: number }>('select id, category_id from product order by id limit 1');
      const { id, category_id: categoryId } = product!;
      const gql = (i: number, query: string, variables: Record<string, unknown>) =>
        cluster.at(i).request(`/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`, { headers: { 'apollo-require-preflight': 'true' } });
      const PRODUCT = 'query P($id: Int!) { product(id: $id) { id name } }';
      const TREE = '{ categories { id name } }';
      const readAll = async () => {
        for (let i = 0; i < count; i++) {
          expect((await cluster.at(i).request(`/api/products/${id}`)).status).toBe(200);
          expect((await cluster.at(i).request('/api/categories/all')).status).toBe(200);
          expect((await gql(i, PRODUCT, { id })).status).toBe(200);
          expect((await gql(i, TREE, {})).status).toBe(200);
        }
      };
      for (let round = 0; round < count; round++) {
        await readAll(); // every process now has these answers in its cache
        const name = `Renamed ${count}-${round}`;
        expect((await cluster.at(round).request(`/api/products/${id}`, { method: 'PUT', token, json: { product: { name } } })).status).toBe(200);
        expect((await cluster.at(round).request(`/api/categories/${categoryId}`, { method: 'PUT', token, json: { name: `Shelf ${round}` } })).status).toBe(200);
        for (let i = 1; i <= count; i++) {
          const reader = cluster.at(round + i);
          expect((await (await reader.request(`/api/products/${id}`)).json()).product.name, reader.name).toBe(name);
          expect((await (await gql(round + i, PRODUCT, { id })).json()).data.product.name, reader.name).toBe(name);
          const tree = (await (await reader.request('/api/categories/all')).json()) as { id: number; name: string }[];
          expect(tree.find((c) => c.id === categoryId)!.name, reader.name).toBe(`Shelf ${round}`);
          const gqlTree = (await (await gql(round + i, TREE, {})).json()).data.categories as { id: number; name: string }[];
          expect(gqlTree.find((c) => c.id === categoryId)!.name, reader.name).toBe(`Shelf ${round}`);
        }
      }
      // Each web process listens for the others' changes on one connection of its own.
      const listeners = await cluster.sql<{ n: number }>(`select count(*)::int as n from pg_stat_activity where application_name = 'artsong-cache-feed' and datname = current_database()`);
      expect(listeners[0]!.n).toBe(cluster.all.length);
    });


    it("follow a sale's start and end within a second in every process, cached reads and pages included, whichever process wrote it", async () => {
      const [product] = await cluster.sql<{ id: number; price: string }>(`select id, price::text from product where status = 'active' order by id limit 1`);
      const { id } = product!;
      const regular = Number(product!.price);
      const salePrice = Math.max(0.01, Math.round(regular * 50) / 100);
      const gql = (i: number) =>
        cluster.at(i).request(`/graphql?query=${encodeURIComponent('query P($id: Int!) { product(id: $id) { price } }')}&variables=${encodeURIComponent(JSON.stringify({ id }))}`, { headers: { 'apollo-require-preflight': 'true' } });
      /** What each process answers now over REST, GraphQL and the product's page, with when the read began and ended. */
      const readAll = async () =>
        Promise.all(
          Array.from({ length: count }, async (_, i) => {
            const began = Date.now();
            const [rest, graph, page] = await Promise.all([cluster.at(i).request(`/api/products/${id}`), gql(i), cluster.at(i).request(`/product/${id}`)]);
            const prices = [(await rest.json()).product.price as number, Number((await graph.json()).data.product.price), (await page.text()).includes(`"price":"${salePrice.toFixed(2)}"`) ? salePrice : regular];
            return { process: i, began, ended: Date.now(), prices };
          }),
        );
      await readAll(); // every process has the product in its cache
      const startsAt = Date.now() + 2000;
      const endsAt = startsAt + 2000;
      const created = await cluster.at(1).request('/api/admin/sales', { method: 'POST', token, json: { name: 'Flash', percent_off: 50, product_ids: [id], starts_at: new Date(startsAt).toISOString(), ends_at: new Date(endsAt).toISOString() } });
      expect(created.status).toBe(201);
      const reads: Awaited<ReturnType<typeof readAll>> = [];
      while (Date.now() < endsAt + 2000) reads.push(...(await readAll()));
      const wrong = reads.filter((read) => {
        const expected = read.began >= startsAt + 1000 && read.ended < endsAt ? salePrice : read.began >= endsAt + 1000 || read.ended < startsAt ? regular : null;
        return expected !== null && read.prices.some((price) => price !== expected);
      });
      expect(wrong).toEqual([]);
      // Every process served the sale price while it ran, and the regular one after it.
      for (let i = 0; i < count; i++) {
        expect(reads.some((read) => read.process === i && read.prices.every((price) => price === salePrice)), `process ${i} during the sale`).toBe(true);
        expect(reads.at(-count + i)!.prices).toEqual([regular, regular, regular]);
      }
      await cluster.at(0).request(`/api/admin/sales/${(await created.json()).id}`, { method: 'DELETE', token });
    });

    it('count failed logins across processes: the limit holds wherever the guesses land', async () => {
      const username = `guessed-${count}`;
      const register = await cluster.at(0).request('/api/register', { method: 'POST', json: { username, password: 'right-pass-1', email: `${username}@example.com` } });
      expect(register.status).toBe(201);
      // LOGIN_MAX_FAILURES_PER_USER is 10 by default: ten wrong guesses spread over every process...
      for (let i = 0; i < 10; i++) {
        const res = await cluster.at(i).request('/api/login', { method: 'POST', json: { username, password: `wrong-${i}` } });
        expect(res.status, cluster.at(i).name).toBe(401);
      }
      // ...and the account is closed to the next try on any of them, even with the right password.
      for (let i = 0; i < count; i++) {
        const res = await cluster.at(i).request('/api/login', { method: 'POST', json: { username, password: 'right-pass-1' } });
        expect(res.status, cluster.at(i).name).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(await cluster.sql(`select points from rate_limit where key = $1`, [`login-user:${username}`])).toEqual([{ points: 10 + count }]);
    });

    // Shared state that other parts of the shop keep in PostgreSQL belongs here, driven the same way
    // (`cluster.at(0)`, `cluster.at(1)`, ...).
  });
}
