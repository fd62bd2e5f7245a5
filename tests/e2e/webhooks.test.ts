import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, iconsDrawn } from '../helpers/account-browser.js';
import { seriousProblems } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';

/**
 * Webhooks in a real browser (contract section 19): the owner adds an endpoint for two events and
 * copies its secret from the one time it is shown; a product created on the API is POSTed to it,
 * signed; the endpoint answers 503, which the deliveries list shows, then 200 once it is fixed, and
 * "Redeliver" sends the same event (same id) again; at phone width the lists fit; Delete removes it.
 */
const suite = browserSuite({ webhookAllowPrivate: true });

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let receiver: http.Server;
let receiverUrl = '';
let answer = 503;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'down for maintenance');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/art-song`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

const toast = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });

/** What the receiver would check: the signature of `{t}.{body}` with the secret, as /developers shows. */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const [t, v1] = String(headers['artsong-signature']).split(',').map((part) => part.split('=')[1]);
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return v1 !== undefined && v1.length === expected.length && crypto.timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

describe('webhooks in a real browser', () => {
  it('the owner adds an endpoint, reads its secret once, follows a failing delivery, redelivers it and deletes the endpoint', { timeout: 300_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const owner = await (await newContext(browser, app.url)).newPage();
    await signIn(owner);
    await owner.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await owner.goto('/admindash?view=api-keys');
    await owner.getByRole('menuitem', { name: 'Webhooks' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(owner.url()).search, { timeout: 30_000 }).toBe('?view=webhooks');
    await owner.getByText('No webhooks yet').waitFor({ timeout: 30_000 });

    // Add endpoint: each field says what is missing, the server's word on the URL included.
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    const add = owner.getByRole('dialog', { name: 'Add webhook endpoint' });
    await add.getByLabel('Endpoint URL').fill('ftp://files.example.com/drop');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByText('Choose at least one event.').waitFor({ timeout: 30_000 });
    await add.getByText('Product created').click();
    await add.getByText('Order paid').click();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByText('The URL must start with https:// or http://.').waitFor({ timeout: 30_000 });
    await add.getByLabel('Endpoint URL').fill(receiverUrl);
    await iconsDrawn(owner);
    await screenshotOf(add, 'webhooks-add-1280');
    expect(await seriousProblems(owner)).toEqual([]);
    await add.getByRole('button', { name: 'Add endpoint' }).click();

    const added = owner.getByRole('dialog', { name: 'Webhook endpoint added' });
    const secret = (await added.getByLabel('Signing secret').textContent({ timeout: 30_000 }))!;
    expect(secret).toMatch(/^whsec_[\w-]{20,}$/);
    expect(await added.getByText('This secret will not be shown again').isVisible()).toBe(true);
    await screenshotOf(added, 'webhooks-added-1280');
    await added.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('create'), { timeout: 30_000 }).toBe(null);

    const row = owner.locator('.webhooks-table tbody tr').first();
    await row.getByText(receiverUrl).waitFor({ timeout: 30_000 });
    expect(await row.locator('.webhook-event').allTextContents()).toEqual(['order.paid', 'product.created']);
    expect(await row.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await owner.getByText(secret).count()).toBe(0);
    const [stored] = await app.sql<{ url: string; events: string[] }>('select url, events from webhook_endpoint');
    expect(stored).toEqual({ url: receiverUrl, events: ['order.paid', 'product.created'] });

    // A product created on the API goes out, signed; the endpoint is down (503).
    const categoryId = await restCategory(app, admin, 'Winter');
    const created = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: categoryId, name: 'Winter Wreath', description: 'Green.', price: 5.25, product_type_id: 2 }, tags: [], e_greeting_card_data: null } });
    expect(created.status).toBe(201);
    await app.services.webhookDeliveries.runDue();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const first = received[0]!;
    const event = JSON.parse(first.body) as { id: string; type: string; data: { product: { name: string } } };
    expect(event).toMatchObject({ type: 'product.created', data: { product: { name: 'Winter Wreath', price: '5.25' } } });
    expect(first.headers['artsong-event-id']).toBe(event.id);
    expect(signedWith(secret, first)).toBe(true);

    await row.getByRole('button', { name: `Deliveries to ${receiverUrl}` }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('endpoint'), { timeout: 30_000 }).toBe(String((await app.sql<{ id: number }>('select id from webhook_endpoint'))[0]!.id));
    const deliveries = owner.locator('.webhook-deliveries-table tbody tr');
    await expect.poll(() => deliveries.count(), { timeout: 30_000 }).toBe(1);
    const delivery = deliveries.first();
    await delivery.getByText('Pending', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await delivery.locator('td').nth(0).textContent()).toBe(`product.created${event.id}`);
    expect(await delivery.locator('td[data-label="Attempts"]').textContent()).toBe('1');
    expect(await delivery.locator('.webhook-answer').textContent()).toContain('HTTP 503');
    await iconsDrawn(owner);
    await screenshot(owner, 'webhooks-deliveries-failing-1280');
    expect(await seriousProblems(owner)).toEqual([]);

    // Fixed: Redeliver sends the same event again now, and the list says it was delivered.
    answer = 200;
    await delivery.getByRole('button', { name: `Redeliver product.created ${event.id}` }).click();
    await toast(owner, 'Queued to be sent again now, with the same event id');
    await app.services.webhookDeliveries.runDue();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    expect(received[1]!.headers['artsong-event-id']).toBe(event.id);
    expect(JSON.parse(received[1]!.body)).toEqual(event);
    expect(signedWith(secret, received[1]!)).toBe(true);
    await owner.getByRole('button', { name: 'Refresh deliveries' }).click();
    await delivery.getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await delivery.locator('td[data-label="Attempts"]').textContent()).toBe('2');
    expect(await delivery.locator('.webhook-answer').textContent()).toBe('HTTP 200');
    const [audited] = await app.sql<{ n: number }>(`select count(*)::int as n from audit_entry where entity = 'webhook' and action = 'redelivered'`);
    expect(audited!.n).toBe(1);
    await screenshot(owner, 'webhooks-deliveries-1280');

    // On a phone: the endpoint and its deliveries within the screen.
    await owner.setViewportSize(PHONE);
    await owner.reload();
    await delivery.getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    await iconsDrawn(owner);
    await screenshot(owner, 'webhooks-deliveries-390');
    for (const box of [await row.boundingBox(), await delivery.boundingBox()]) expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousProblems(owner)).toEqual([]);
    await owner.setViewportSize({ width: 1280, height: 800 });

    // Delete: the endpoint and its deliveries go.
    await row.getByRole('button', { name: `Delete ${receiverUrl}` }).click();
    const alert = owner.getByRole('alertdialog');
    await alert.getByText('Delete the endpoint').waitFor({ timeout: 30_000 });
    await alert.getByRole('button', { name: 'Delete endpoint' }).click();
    await toast(owner, 'Webhook endpoint deleted');
    await owner.getByText('No webhooks yet').waitFor({ timeout: 30_000 });
    expect(new URL(owner.url()).searchParams.get('endpoint')).toBe(null);
    expect(await app.sql('select id from webhook_endpoint')).toEqual([]);
    expect(await app.sql('select id from webhook_delivery')).toEqual([]);
  });
});
