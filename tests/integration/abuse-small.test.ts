import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import type { ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RefundResult } from '../../server/src/modules/payments/payment-provider.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The smaller items of contract section 8, each with its test. */

/** The test provider, with a gate the test opens: a payment call the test can watch from outside. */
class SlowProvider implements PaymentProvider {
  readonly name = 'test';
  readonly inner = new TestPaymentProvider();
  requests: ChargeRequest[] = [];
  gate: Promise<void> | null = null;
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.requests.push(request);
    await this.gate;
    return this.inner.charge(request);
  }
  refund(request: RefundRequest): Promise<RefundResult> {
    return this.inner.refund(request);
  }
}

let app: TestApp;
let admin: string;
let shop: Shop;
const provider = new SlowProvider();

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [provider] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

describe('checkout', () => {
  it('holds no transaction and no lock while the payment provider is called, and passes it the idempotency key', async () => {
    let release!: () => void;
    provider.gate = new Promise<void>((resolve) => (release = resolve));
    const input = orderInput(shop);
    const pending = placeOrder(app, input);
    await expect.poll(() => provider.requests.length, { timeout: 10_000 }).toBe(1);
    const database = app.databaseName;
    const busy = await app.adminSql(`select state from pg_stat_activity where datname = $1 and state like 'idle in transaction%'`, [database]);
    const advisory = await app.adminSql(`select l.objid from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = $1`, [database]);
    release();
    provider.gate = null;
    const { body } = await pending;
    expect(busy).toEqual([]);
    expect(advisory).toEqual([]);
    expect(body.data.placeOrder.status).toBe('PAID');
    expect(provider.requests[0]!.idempotencyKey).toBe(input.idempotencyKey);
  });

  it('still makes one order and one charge out of 20 concurrent submissions with one key while the provider is slow', async () => {
    let release!: () => void;
    provider.gate = new Promise<void>((resolve) => (release = resolve));
    const charged = provider.inner.chargeCount;
    const input = orderInput(shop);
    const all = Promise.all(Array.from({ length: 20 }, () => placeOrder(app, input)));
    await expect.poll(() => provider.requests.filter((r) => r.idempotencyKey === input.idempotencyKey).length, { timeout: 10_000 }).toBeGreaterThan(0);
    release();
    provider.gate = null;
    const answers = await all;
    expect(new Set(answers.map((a) => a.body.data?.placeOrder.id)).size).toBe(1);
    expect(await app.sql('select id from "order" where idempotency_key = $1', [input.idempotencyKey])).toHaveLength(1);
    expect(provider.inner.chargeCount - charged).toBe(1);
    expect(await app.sql(`select kind from mail_job j join "order" o on j.subject = 'order:' || o.id where o.idempotency_key = $1 and kind in ('card', 'receipt') order by kind`, [input.idempotencyKey])).toEqual([{ kind: 'card' }, { kind: 'receipt' }]);
  });
});

describe('the page head of a blog post', () => {
  it("shows a title with $' and $& as written", async () => {
    const title = "Tom's $' and $& and $` day";
    const res = await app.request('/api/blog', { method: 'POST', token: admin, json: { title, slug: 'dollar-day', body: 'Body', excerpt: 'An excerpt with $1', status: 'published' } });
    expect(res.status).toBe(201);
    const page = await app.request('/blog/dollar-day', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Tom&#39;s $&#39; and $&amp; and $` day');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
  });
});

describe('the category tree', () => {
  it('never makes a cycle from two moves at once', async () => {
    const make = async (name: string) => (await (await app.request('/api/categories', { method: 'POST', token: admin, json: { name, parent_id: null } })).json()).id as number;
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = [await make(`A${round}`), await make(`B${round}`)];
      const [one, two] = await Promise.all([
        app.request(`/api/categories/${a}`, { method: 'PUT', token: admin, json: { parent_id: b } }),
        app.request(`/api/categories/${b}`, { method: 'PUT', token: admin, json: { parent_id: a } }),
      ]);
      expect([one.status, two.status].sort()).toEqual([200, 400]);
      const rows = await app.sql<{ id: number; parent_id: number | null }>('select id, parent_id from category where id in ($1, $2)', [a, b]);
      expect(rows.filter((r) => r.parent_id !== null)).toHaveLength(1);
    }
  });
});

describe('the embedded PostgreSQL', () => {
  it('gets a generated password kept in DATA_DIR (owner-only), and an old cluster with the fixed one is moved to a generated one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-pgpass-'));
    try {
      const db = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
      const file = path.join(dataDir, 'pg-password');
      const password = fs.readFileSync(file, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(password).not.toBe('postgres');
      expect(fs.statSync(file).mode & 0o077).toBe(0);
      const url = new URL(db.url('postgres'));
      expect(decodeURIComponent(url.password)).toBe(password);
      const wrong = new pg.Client({ host: url.hostname, port: Number(url.port), user: 'postgres', password: 'postgres', database: 'postgres' });
      await expect(wrong.connect()).rejects.toThrow(/password/);
      await wrong.end().catch(() => undefined);

      // As an older version left it: the fixed password, no password file.
      const client = new pg.Client({ connectionString: db.url('postgres') });
      await client.connect();
      await client.query(`alter user postgres password 'postgres'`);
      await client.end();
      await db.stop();
      fs.rmSync(file);
      const again = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
      try {
        const rotated = fs.readFileSync(file, 'utf8').trim();
        expect(rotated).not.toBe('postgres');
        const check = new pg.Client({ connectionString: again.url('postgres') });
        await check.connect();
        await check.end();
      } finally {
        await again.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
