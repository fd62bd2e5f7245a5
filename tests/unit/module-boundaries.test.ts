import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's feature modules (`server/src/modules/<name>/`) and their front doors. A module offers
 * other modules what its `index.ts` exports and nothing else; it uses only the modules the map below
 * names (so there is no cycle between modules); and it reads and writes only its own tables, asking
 * the module that owns any other table for what it needs. The composition root (`server/src/*.ts`,
 * `schema/`) and the gateway wire modules together and may reach into them.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const MODULES_DIR = 'server/src/modules';

/** Which module may use which: the whole map. A module not named here may use none. */
const MAY_USE: Record<string, readonly string[]> = {
  limits: [],
  audit: [],
  mail: [],
  payments: [],
  settings: ['audit', 'media'],
  media: ['audit'],
  auth: ['limits', 'mail', 'settings'],
  consent: ['mail', 'settings'],
  webhooks: ['audit', 'mail'],
  catalogue: ['audit', 'media', 'webhooks'],
  blog: ['audit', 'auth', 'media'],
  seo: ['blog', 'catalogue'],
  discount: ['audit', 'catalogue', 'limits', 'orders'],
  promotions: ['audit', 'catalogue'],
  'gift-cards': ['audit', 'limits', 'mail'],
  memberships: ['audit', 'gift-cards', 'limits', 'mail', 'payments'],
  contacts: ['auth', 'mail'],
  staff: ['audit', 'auth', 'mail'],
  orders: ['audit', 'auth', 'catalogue', 'consent', 'mail', 'payments', 'webhooks'],
  'group-card': ['audit', 'limits', 'mail', 'orders'],
  ecard: ['consent', 'group-card', 'limits', 'mail', 'orders', 'webhooks'],
  checkout: ['auth', 'catalogue', 'discount', 'gift-cards', 'group-card', 'memberships', 'limits', 'mail', 'orders', 'payments', 'webhooks'],
  customers: ['auth', 'memberships', 'orders'],
  'email-problems': ['audit', 'mail', 'orders'],
  'api-keys': ['audit'],
};

/** Tables created by migrations without an entity, by the module that owns them. */
const TABLES_WITHOUT_ENTITY: Record<string, string> = { rate_limit: 'limits', audit_entry: 'audit', mail_rate_second: 'mail', sales_hour: 'orders', sales_product_day: 'orders', sales_change: 'orders', sale: 'promotions', sale_product: 'promotions', sale_category: 'promotions', sale_clock: 'promotions', membership_customer: 'memberships', membership_event: 'memberships', ecard_page: 'ecard', product_page: 'catalogue', product_page_stamp: 'catalogue', product_page_work: 'catalogue' };

const MEDIA_JSON = "the catalogue's one-statement reads build each answer's JSON with its files' paths in PostgreSQL (the cached reads' design); through the media module they would cost a round trip per answer";
const CARD_IS_ITEM = 'an e-card is an order item: its page, its opening and its reminder read and mark the item (the orders module has no card API yet)';
const ECARD_PAGE_STATE = "a card's page reads everything it shows in one prepared statement (its item, its order's status and language, a group card's signatures): a first opening's one read, where the modules' services would take four";
const CHECKOUT_WRITES = 'checkout writes the order it places and settles through these entities (order-item-rows.ts in the orders module holds its hot SQL)';
const PRICES = 'checkout prices lines from the catalogue in one statement with their card data';

/**
 * What still crosses into another module's table, each with its reason. The list may only shrink: a
 * new crossing fails the test, and so does an entry here that no longer happens.
 */
const KNOWN_CROSSINGS: Record<string, string> = {
  'server/src/modules/catalogue/catalogue-reads.ts → media_file': MEDIA_JSON,
  'server/src/modules/catalogue/storefront-product.ts → media_file': MEDIA_JSON,
  'server/src/modules/catalogue/storefront-product.ts → MediaFile': MEDIA_JSON,
  'server/src/modules/catalogue/product.service.ts → MediaFile': "a product's pictures are loaded with it for the admin's product form",
  'server/src/modules/catalogue/product-picture.ts → media_file': "a product's main picture's path in one read (a bought gift card keeps it as its design)",
  'server/src/modules/checkout/priced-products.ts → e_greeting_card': PRICES,
  'server/src/modules/checkout/priced-products.ts → product': PRICES,
  'server/src/modules/checkout/priced-products.ts → product_translation': "checkout names an order's lines in the language it is bought in (the product's translated name, else its own), in the same statement",
  'server/src/modules/checkout/priced-products.ts → product_type': 'checkout tells a gift card (sold at the amount chosen) and a gift membership (at its plan\'s price) from other products in the same statement',
  'server/src/modules/checkout/priced-products.ts → membership_plan': "checkout prices a gift membership at the price of the plan it gives, in the same statement",
  'server/src/modules/checkout/priced-products.ts → sale': "checkout prices lines by the sales running at the moment of the order, in the same statement (the database's running_sale_price)",
  'server/src/modules/promotions/sale.service.ts → product': 'a sale counts the products it prices now (kept by the database on each product, see the scheduled-sales migration)',
  'server/src/modules/checkout/priced-products.ts → media_file': PRICES,
  'server/src/modules/checkout/order-settlement.ts → Order': CHECKOUT_WRITES,
  'server/src/modules/checkout/pending-order-writer.ts → OrderItem': CHECKOUT_WRITES,
  'server/src/modules/checkout/pending-orders.ts → Order': CHECKOUT_WRITES,
  'server/src/modules/checkout/payment/stripe-webhooks.ts → Order': CHECKOUT_WRITES,
  'server/src/modules/ecard/ecard-emails.ts → order_item': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard-emails.ts → OrderItem': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard-loop.service.ts → order_item': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard-loop.service.ts → OrderItem': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard.service.ts → OrderItem': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard-page-state.ts → order_item': CARD_IS_ITEM,
  'server/src/modules/ecard/ecard-page-state.ts → order': ECARD_PAGE_STATE,
  'server/src/modules/ecard/ecard-page-state.ts → group_card': ECARD_PAGE_STATE,
  'server/src/modules/ecard/ecard-page-state.ts → group_card_signature': ECARD_PAGE_STATE,
  'server/src/modules/group-card/group-card-owner.service.ts → OrderItem': "a group card's purchaser is found through its order item",
  'server/src/modules/orders/order.service.ts → Product': "an order line's product, unless deleted since, is loaded with the order's items (batched)",
  'server/src/modules/contacts/occasion-reminders.ts → app_user': "the sweep of due reminders reads each account's time zone in its one statement",
  'server/src/modules/customers/customers.service.ts → app_user': 'the Customers view is a report over the customer accounts with their order figures, filtered and sorted in one statement',
};

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const modules = readdirSync(path.join(ROOT, MODULES_DIR)).filter((name) => statSync(path.join(ROOT, MODULES_DIR, name)).isDirectory()).sort();
const filesOf = (module: string) =>
  readdirSync(path.join(ROOT, MODULES_DIR, module), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.posix.join(MODULES_DIR, module, file.split(path.sep).join('/')));
const moduleOf = (file: string) => (file.startsWith(`${MODULES_DIR}/`) ? file.slice(MODULES_DIR.length + 1).split('/')[0]! : null);

/** Every relative module a file names in an import, an export-from or a dynamic import (types included). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const importsOf = (file: string, text = read(file)) => [...text.matchAll(SPECIFIER)].map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)));

/** The imports that cross from one module into another. */
function crossings(): { from: string; file: string; to: string; target: string }[] {
  return modules.flatMap((module) =>
    filesOf(module).flatMap((file) =>
      importsOf(file)
        .map((target) => ({ from: module, file, to: moduleOf(target), target }))
        .filter((c): c is { from: string; file: string; to: string; target: string } => c.to !== null && c.to !== module),
    ),
  );
}

/** The cycles of a directed graph (each as the path that closes it), found by depth-first search. */
function cyclesOf(graph: Record<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(node)), node]);
      return;
    }
    state.set(node, 'open');
    for (const next of graph[node] ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
  return cycles;
}

/** Each table by the module whose entity maps it (or whose migration made it). */
function tableOwners(): Map<string, string> {
  const owners = new Map(Object.entries(TABLES_WITHOUT_ENTITY));
  for (const module of modules) for (const file of filesOf(module)) for (const m of read(file).matchAll(/tableName:\s*'([a-z_]+)'/g)) owners.set(m[1]!, module);
  return owners;
}

/** Each entity class by the module that declares it. */
function entityOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const module of modules) for (const file of filesOf(module).filter((f) => f.endsWith('.entity.ts'))) for (const m of read(file).matchAll(/export class (\w+)/g)) owners.set(m[1]!, module);
  return owners;
}

const SQL_VERB = String.raw`\b(?:from|join|update|into|delete\s+from|truncate|table)\s+`;
/** The tables a text names in SQL, and the entities it hands to the ORM's finders and writers. */
function dataUses(text: string, tables: Map<string, string>, entities: Map<string, string>): { table: string; via: string }[] {
  const uses: { table: string; via: string }[] = [];
  for (const table of tables.keys()) {
    if (new RegExp(`${SQL_VERB}"?${table}"?(?![\\w"])`, 'i').test(text)) uses.push({ table, via: 'SQL' });
  }
  for (const [entity] of entities) {
    const orm = new RegExp(String.raw`\b(?:find\w*|count|nativeUpdate|nativeDelete|create|getReference|upsert\w*|createQueryBuilder|qb|persist|remove|loadRef|keysetPage|map)\(\s*(?:[\w.]+,\s*)?${entity}\b`);
    if (orm.test(text)) uses.push({ table: entity, via: 'ORM' });
  }
  return uses;
}

describe('the server modules', () => {
  it('are the ones the map names, each with a front door', () => {
    expect(modules.length).toBeGreaterThan(15);
    expect(modules.filter((m) => !(m in MAY_USE))).toEqual([]);
    expect(Object.keys(MAY_USE).filter((m) => !modules.includes(m))).toEqual([]);
    expect(modules.filter((m) => !filesOf(m).includes(`${MODULES_DIR}/${m}/index.ts`))).toEqual([]);
  });

  it('reach into each other only through the front door (index.ts)', () => {
    const deep = crossings().filter((c) => c.target !== `${MODULES_DIR}/${c.to}/index.js`);
    expect(deep.map((c) => `${c.file} → ${c.target}`)).toEqual([]);
  });

  it('import themselves through their own files, never through their front door', () => {
    const own = modules.flatMap((m) => filesOf(m).filter((f) => !f.endsWith('/index.ts')).flatMap((file) => importsOf(file).filter((t) => t === `${MODULES_DIR}/${m}/index.js`).map((t) => `${file} → ${t}`)));
    expect(own).toEqual([]);
  });

  it('use only the modules the map lets them use', () => {
    const unlisted = crossings().filter((c) => !(MAY_USE[c.from] ?? []).includes(c.to));
    expect(unlisted.map((c) => `${c.from} may not use ${c.to}: ${c.file}`)).toEqual([]);
  });

  it('have no cycle, in the map or in their imports', () => {
    expect(cyclesOf(MAY_USE)).toEqual([]);
    const actual: Record<string, string[]> = {};
    for (const c of crossings()) (actual[c.from] ??= []).includes(c.to) || actual[c.from]!.push(c.to);
    expect(cyclesOf(actual)).toEqual([]);
  });

  it('read and write only their own tables, but for the crossings listed with their reasons', () => {
    const tables = tableOwners();
    const entities = entityOwners();
    const found = new Set<string>();
    const violations: string[] = [];
    for (const module of modules) {
      for (const file of filesOf(module).filter((f) => !f.endsWith('.entity.ts'))) {
        for (const use of dataUses(read(file), tables, entities)) {
          const owner = use.via === 'SQL' ? tables.get(use.table) : entities.get(use.table);
          if (owner === module) continue;
          const key = `${file} → ${use.table}`;
          found.add(key);
          if (!(key in KNOWN_CROSSINGS)) violations.push(`${key} (${use.via}, owned by ${owner})`);
        }
      }
    }
    expect(violations).toEqual([]);
    expect(Object.keys(KNOWN_CROSSINGS).filter((key) => !found.has(key))).toEqual([]);
  });

  it('would catch a deep import, a cycle and a read of another module\'s table', () => {
    const tables = new Map([['order', 'orders'], ['mail_job', 'mail']]);
    const entities = new Map([['Order', 'orders'], ['MailJob', 'mail']]);
    expect(dataUses('await em.execute(`select id from "order" where user_id = ?`)', tables, entities)).toEqual([{ table: 'order', via: 'SQL' }]);
    expect(dataUses("update mail_job j set status = 'sent'", tables, entities)).toEqual([{ table: 'mail_job', via: 'SQL' }]);
    expect(dataUses('await em.nativeUpdate(MailJob, { id }, {})', tables, entities)).toEqual([{ table: 'MailJob', via: 'ORM' }]);
    expect(dataUses('ctx.em.find(Order, { user: 1 })', tables, entities)).toEqual([{ table: 'Order', via: 'ORM' }]);
    expect(dataUses('// the order of the lines, from the cart', tables, entities)).toEqual([]);
    expect(cyclesOf({ orders: ['checkout'], checkout: ['orders'] })).toEqual([['orders', 'checkout', 'orders']]);
    expect(importsOf(`${MODULES_DIR}/account/x.ts`, "import { Order } from '../orders/order.entity.js';")).toEqual([`${MODULES_DIR}/orders/order.entity.js`]);
  });
});
