import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { PHONE, iconsDrawn } from '../helpers/account-browser.js';
import { SHOPPERS, seriousProblems } from '../helpers/axe.js';
import { browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { VERIFY_WEBHOOK_EXAMPLE } from '../../web/src/storefront/developers/verify-webhook-example.js';

/**
 * /developers in a real browser (contract section 19): a visitor finds it from the footer, reads each
 * section, copies a sample, and opens the GraphQL explorer with an API key pasted in: the key is in the
 * explorer's headers and on its requests, never in an address the shop receives. Readable and free of
 * accessibility problems at desktop and phone widths, in the default (dark) theme.
 */
const suite = browserSuite();

const SECTIONS = ['Authentication', 'Scopes', 'Pagination', 'Errors', 'Rate limits', 'Webhooks', 'Explorer'];

/** What GraphiQL's header editor shows (Monaco writes spaces as no-break spaces). */
const headerEditorText = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('.graphiql-editor-tool .view-lines')].map((lines) => lines.textContent ?? '').join('\n').replace(/\u00a0/g, ' '));

describe('the developers page in a real browser', () => {
  it('is found from the footer, copies its samples and opens the explorer with a key', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const created = await app.request('/api/admin/api-keys', { method: 'POST', token: admin, json: { name: 'Docs reader', scopes: ['catalogue:read'] } });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };

    const context = await newContext(browser, app.url, { permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto('/shop');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Developers' }).click({ timeout: 30_000 });
    await page.waitForURL((url) => url.pathname === '/developers', { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: 'Build on Art & Song Cards' }).waitFor({ timeout: 30_000 });
    for (const name of SECTIONS) expect(await page.getByRole('heading', { level: 2, name, exact: true }).isVisible(), name).toBe(true);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    expect(await toc.getByRole('link').allTextContents()).toEqual(SECTIONS);
    for (const scope of ['catalogue:read', 'catalogue:write', 'orders:read', 'orders:write', 'customers:read']) {
      expect(await page.getByRole('rowheader', { name: scope, exact: true }).isVisible(), scope).toBe(true);
    }
    for (const event of ['order.paid', 'card.opened', 'customer.created']) expect(await page.getByRole('rowheader', { name: event, exact: true }).isVisible(), event).toBe(true);

    // Drawn by the server too: a first visit by its address carries every section before any script runs.
    const served = await (await app.request('/developers', { headers: { accept: 'text/html' } })).text();
    for (const name of SECTIONS) expect(served, name).toContain(`>${name}</h2>`);
    expect(served).toContain('<title>Developers · Art &amp; Song Cards</title>');

    // The samples name the shop's own address once the page is the browser's.
    await expect.poll(() => page.getByRole('figure', { name: 'REST with an API key' }).locator('code').textContent(), { timeout: 30_000 }).toContain(`${app.url}/api/admin/orders`);

    // A table of contents link goes to its section.
    await toc.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#webhooks');
    expect(await page.getByRole('heading', { level: 2, name: 'Webhooks' }).isVisible()).toBe(true);

    // Copy puts the sample, exactly, on the clipboard.
    const copy = page.getByRole('button', { name: 'Copy: verify-webhook.js (Node)' });
    await copy.click();
    await page.getByRole('button', { name: 'Copied: verify-webhook.js (Node)' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(VERIFY_WEBHOOK_EXAMPLE);
    await page.getByText('verify-webhook.js (Node): copied to the clipboard').waitFor({ state: 'attached', timeout: 15_000 });

    await page.goto('/developers');
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
    await iconsDrawn(page);
    await screenshot(page, 'developers-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    // The explorer: a key that is not one is said so; a key opens the explorer in a new tab with it in the headers.
    const field = page.getByLabel('API key', { exact: true });
    await field.fill('not-a-key');
    await page.getByRole('button', { name: 'Open the explorer' }).click();
    await page.getByText('An API key is ask_ followed by 32 letters and digits').waitFor({ timeout: 15_000 });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(key);
    const requests: Request[] = [];
    context.on('request', (request) => requests.push(request));
    const [explorer] = await Promise.all([context.waitForEvent('page', { timeout: 30_000 }), page.getByRole('button', { name: 'Open the explorer' }).click()]);
    await explorer.waitForLoadState('domcontentloaded');
    // The key left the address at once: neither the address bar nor the history keeps it.
    await expect.poll(() => explorer.url(), { timeout: 30_000 }).toBe(`${app.url}/graphql`);
    await expect.poll(() => headerEditorText(explorer), { timeout: 60_000 }).toContain(`"Authorization": "Bearer ${key}"`);
    await explorer.getByRole('button', { name: /^Execute query/ }).click({ timeout: 30_000 });
    await expect.poll(() => explorer.locator('.result-window').textContent(), { timeout: 30_000 }).toContain('totalCount');
    // The operation went with the key (the explorer's own reading of the schema may go without: anyone may read it).
    const sent = requests.filter((request) => request.url() === `${app.url}/graphql` && request.method() === 'POST' && request.postData()?.includes('searchProducts'));
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(await request.headerValue('authorization')).toBe(`Bearer ${key}`);
    // The shop never received the key in an address (the fragment is the browser's alone).
    expect(requests.filter((request) => request.url().includes(key))).toEqual([]);
    await screenshot(explorer, 'developers-explorer-1280');
    await explorer.close();

    // On a phone: every section within the screen's width, as readable and as accessible.
    await page.setViewportSize(PHONE);
    await page.goto('/developers');
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
    await iconsDrawn(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    for (const name of SECTIONS) {
      const box = await page.getByRole('heading', { level: 2, name, exact: true }).boundingBox();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(PHONE.width);
    }
    await screenshot(page, 'developers-390');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    // In the light theme too (the visitor's choice, which the server draws the page in).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => {
      localStorage.setItem('theme', 'light');
      document.cookie = 'theme=light; path=/';
    });
    await page.goto('/developers');
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(false);
    await iconsDrawn(page);
    await screenshot(page, 'developers-light-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    expect(hydrationErrors(context)).toEqual([]);
  });
});
