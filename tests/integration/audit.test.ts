import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { png, uploadRest } from '../helpers/media-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;
let staff: { id: number; username: string; token: string };

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  admin = await app.login();
  shop = await seedShop(app, admin);
  staff = await staffMember(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

interface Entry {
  actor_name: string;
  actor_role: string;
  entity: string;
  entity_id: string | null;
  action: string;
  summary: string;
}
const entries = (since: number) => app.sql<Entry & { id: string }>('select id, actor_name, actor_role, entity, entity_id, action, summary from audit_entry where id > $1 order by id', [since]);
const lastId = async () => Number((await app.sql<{ max: string | null }>('select max(id) from audit_entry'))[0]!.max ?? 0);
const json = (path: string, method: string, body: unknown, token = admin) => app.request(path, { method, json: body, token });

describe('the audit log', () => {
  it('records every admin write with who, what and a summary of the change', async () => {
    const since = await lastId();
    const category = await (await json('/api/categories', 'POST', { name: 'Weddings', parent_id: null })).json();
    await json(`/api/categories/${category.id}`, 'PUT', { name: 'Wedding cards' });
    const type = await (await json('/api/product_types', 'POST', { name: 'Posters' })).json();
    await json(`/api/products/${shop.albumId}`, 'PUT', { product: { price: 13.5 } });
    await json('/api/settings', 'PUT', { underConstructionMode: 'true' });
    await json('/api/settings', 'PUT', { underConstructionMode: 'false' });
    const discount = await (await json('/api/admin/discounts', 'POST', { code: 'JUNE10', percent_off: 10 })).json();
    await json(`/api/admin/discounts/${discount.id}`, 'PUT', { code: 'JUNE10', percent_off: 15 });
    await app.request(`/api/admin/discounts/${discount.id}`, { method: 'DELETE', token: admin });
    const folder = await (await json('/api/media/folders', 'POST', { name: 'Audit art', parent_id: null })).json();
    await app.request(`/api/product_types/${type.id}`, { method: 'DELETE', token: admin });
    await app.request(`/api/categories/${category.id}`, { method: 'DELETE', token: admin });
    const post = await (await json('/api/blog', 'POST', { title: 'Hello June', body: 'Text' })).json();
    await app.request(`/api/blog/${post.id}`, { method: 'DELETE', token: admin });

    const rows = await entries(since);
    expect(rows.map((r) => `${r.actor_name} ${r.entity} ${r.action}`)).toEqual([
      'admin category created',
      'admin category updated',
      'admin product-type created',
      'admin product updated',
      'admin settings updated',
      'admin settings updated',
      'admin discount created',
      'admin discount updated',
      'admin discount deleted',
      'admin media-folder created',
      'admin product-type deleted',
      'admin category deleted',
      'admin blog-post created',
      'admin blog-post deleted',
    ]);
    expect(rows[1]!.summary).toBe('“Wedding cards”: name “Weddings” → “Wedding cards”');
    expect(rows[1]!.entity_id).toBe(String(category.id));
    expect(rows[3]!.summary).toBe('“Summer Songs Album”: price “12.00” → “13.50”');
    expect(rows[4]!.summary).toBe('Turned under-construction mode on');
    expect(rows[7]!.summary).toBe('“JUNE10”: discount “10% off” → “15% off”');
    expect(rows[9]!.entity_id).toBe(String(folder.id));
  });

  it('records the media library’s writes: uploads, renames and deletes of files and folders', async () => {
    const since = await lastId();
    const folder = await (await json('/api/media/folders', 'POST', { name: 'Winter', parent_id: null })).json();
    const uploaded = await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'snow.png', data: await png(200, 100) }], admin);
    const [file] = await uploaded.json();
    await json(`/api/media/files/${file.id}`, 'PUT', { friendly_name: 'Snowfall' });
    await json(`/api/media/folders/${folder.id}`, 'PUT', { friendly_name: 'Winter 2026' });
    await app.request(`/api/media/files/${file.id}`, { method: 'DELETE', token: admin });
    await app.request(`/api/media/folders/${folder.id}`, { method: 'DELETE', token: admin });
    expect((await entries(since)).map((r) => `${r.entity} ${r.action}: ${r.summary}`)).toEqual([
      'media-folder created: Created “Winter”',
      'media-file uploaded: Uploaded 1 file into “Winter”: snow.png',
      'media-file updated: Renamed “snow.png” to “Snowfall”',
      'media-folder updated: “Winter”: renamed to “Winter 2026”',
      'media-file deleted: Deleted “Snowfall”',
      'media-folder deleted: Deleted “Winter 2026” with 0 subfolders and 0 files',
    ]);
  });

  it('records staff writes too: refunds and resends, with the staff member as the actor', async () => {
    const since = await lastId();
    const { body } = await placeOrder(app, orderInput(shop));
    const order = body.data.placeOrder;
    const resend = await app.graphql(`mutation($o: ID!) { resendReceipt(orderId: $o) { id } }`, { o: order.id }, staff.token);
    expect(resend.body.errors).toBeUndefined();
    expect((await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: staff.token })).status).toBe(200);
    const rows = await entries(since);
    expect(rows.map((r) => [r.actor_name, r.actor_role, r.entity, r.entity_id, r.action])).toEqual([
      [staff.username, 'staff', 'order', order.id, 'resent'],
      [staff.username, 'staff', 'order', order.id, 'refunded'],
    ]);
    expect(rows[1]!.summary).toBe('Refunded $31.50 (the whole order); the order is now refunded');
  });

  it('rolls the change back when its entry cannot be written, and the entry back with a change that fails at commit', async () => {
    // An entry that cannot be written: the category it records is not made either.
    await app.sql(`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`);
    await app.sql(`create trigger refuse_audit before insert on audit_entry for each row when (new.summary like '%Doomed%') execute function refuse_audit()`);
    const since = await lastId();
    const doomed = await json('/api/categories', 'POST', { name: 'Doomed', parent_id: null });
    expect(doomed.status).toBe(500);
    expect(await app.sql(`select id from category where name = 'Doomed'`)).toEqual([]);

    // A change refused at commit (a deferred check): its entry goes with it.
    await app.sql(`create function refuse_late() returns trigger language plpgsql as $$ begin raise exception 'refused at commit'; end $$`);
    await app.sql(`create constraint trigger refuse_late after insert on category deferrable initially deferred for each row when (new.name = 'Late') execute function refuse_late()`);
    const late = await json('/api/categories', 'POST', { name: 'Late', parent_id: null });
    expect(late.status).toBe(500);
    expect(await app.sql(`select id from category where name = 'Late'`)).toEqual([]);
    expect(await entries(since)).toEqual([]);

    // And a write that works is recorded as before.
    expect((await json('/api/categories', 'POST', { name: 'Fine', parent_id: null })).status).toBe(201);
    expect((await entries(since)).map((r) => r.summary)).toEqual(['Created “Fine”']);
    await app.sql('drop trigger refuse_audit on audit_entry; drop trigger refuse_late on category');
  });

  it('is read newest first, filtered by person and kind, in pages (REST and GraphQL), by admins only', async () => {
    const first = await app.request(`/api/admin/audit?entity=category`, { token: admin });
    expect(first.status).toBe(200);
    const page = await first.json();
    expect(page.entries.length).toBeGreaterThan(3);
    expect(page.entries.every((e: { entity: string }) => e.entity === 'category')).toBe(true);
    expect(page.entries[0]).toMatchObject({ actor: 'admin', actor_role: 'admin', entity: 'category', summary: 'Created “Fine”' });
    const times = page.entries.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const byStaff = await (await app.request(`/api/admin/audit?actor=${staff.id}`, { token: admin })).json();
    expect(byStaff.entries.map((e: { action: string }) => e.action)).toEqual(['refunded', 'resent', 'joined']);
    const byName = await (await app.request(`/api/admin/audit?actor=${staff.username}`, { token: admin })).json();
    expect(byName.total).toBe(3);

    // Pages: the next_page of one answer is the page of the next, with no entry twice.
    const seen: number[] = [];
    let next: string | null = null;
    const gql = async (after: string | null) => (await app.graphql(`query($a: String) { auditLog(first: 3, after: $a) { totalCount pageInfo { hasNextPage endCursor } edges { node { id actorName entity action } } } }`, { a: after }, admin)).body.data.auditLog;
    do {
      const log = await gql(next);
      seen.push(...log.edges.map((e: { node: { id: string } }) => Number(e.node.id)));
      next = log.pageInfo.hasNextPage ? log.pageInfo.endCursor : null;
    } while (next);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(Number((await app.sql<{ count: string }>('select count(*) from audit_entry'))[0]!.count));
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);

    expect((await app.request('/api/admin/audit?entity=nonsense', { token: admin })).status).toBe(400);
    expect((await app.request('/api/admin/audit')).status).toBe(401);
    expect((await app.request('/api/admin/audit', { token: staff.token })).status).toBe(403);
    const actors = await app.graphql('{ auditActors { id username } }', {}, admin);
    expect(actors.body.data.auditActors.map((a: { username: string }) => a.username)).toEqual(expect.arrayContaining(['admin', staff.username]));
  });

  it('pages by number (50 a page) or after a cursor; a page that is not a number from 1 is 400', async () => {
    for (let i = 0; i < 52; i++) expect((await json('/api/categories', 'POST', { name: `Paged ${i}`, parent_id: null })).status).toBe(201);
    const newestFirst = (await app.sql<{ id: string }>(`select id from audit_entry where entity = 'category' order by "at" desc, id desc`)).map((row) => Number(row.id));
    expect(newestFirst.length).toBeGreaterThan(50);
    const page = async (query: string) => {
      const res = await app.request(`/api/admin/audit?entity=category${query}`, { token: admin });
      expect(res.status).toBe(200);
      return res.json();
    };
    const idsOf = (answer: { entries: { id: number }[] }) => answer.entries.map((e) => e.id);
    const one = await page('&page=1');
    const two = await page('&page=2');
    expect(idsOf(one)).toEqual(newestFirst.slice(0, 50));
    expect(idsOf(two)).toEqual(newestFirst.slice(50));
    expect(idsOf(one).filter((id) => idsOf(two).includes(id))).toEqual([]);
    expect([one.total, one.next_page, two.next_page, two.next_after]).toEqual([newestFirst.length, 2, null, null]);
    expect(idsOf(await page(''))).toEqual(idsOf(one));
    expect(idsOf(await page(`&after=${one.next_after}`))).toEqual(idsOf(two));

    for (const bad of ['0', '-1', 'two', '1.5', '99999999999']) {
      const res = await app.request(`/api/admin/audit?page=${bad}`, { token: admin });
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'page' });
    }
  });

  it('keeps a year: the sweep drops older entries only', async () => {
    await app.sql(`update audit_entry set "at" = now() - interval '366 days' where entity = 'settings'`);
    await app.sql(`update audit_entry set "at" = now() - interval '364 days' where entity = 'discount'`);
    const removed = await app.services.audit.sweep(app.orm.em.fork());
    expect(removed).toBe(2);
    expect(await app.sql(`select id from audit_entry where entity = 'settings'`)).toEqual([]);
    expect((await app.sql(`select id from audit_entry where entity = 'discount'`)).length).toBe(3);
  });
});
