import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, iconsDrawn } from '../helpers/account-browser.js';
import { seriousProblems } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';

/**
 * API keys in a real browser (contract section 19): the owner creates a key with two scopes (the
 * name's field speaks first), copies it from the one time it is shown, sees it listed by its last
 * characters with its scopes, and revokes it; the key works on the API until then and is refused after.
 */
const suite = browserSuite();

const toast = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });

describe('API keys in a real browser', () => {
  it('the owner creates a key, reads it once, and revokes it', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const owner = await (await newContext(browser, app.url)).newPage();
    await signIn(owner);
    await owner.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await owner.goto('/admindash?view=discounts');
    await owner.getByRole('menuitem', { name: 'API keys' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(owner.url()).search, { timeout: 30_000 }).toBe('?view=api-keys');
    await owner.getByText('No API keys yet').waitFor({ timeout: 30_000 });

    await owner.getByRole('button', { name: 'Create API key' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('create'), { timeout: 30_000 }).toBe('1');
    const create = owner.getByRole('dialog', { name: 'Create API key' });
    await create.getByText('Read orders').click();
    await create.getByRole('button', { name: 'Create API key' }).click();
    await create.getByText('Give the key a name.').waitFor({ timeout: 30_000 });
    await create.getByLabel('Name').fill('Fulfilment service');
    await create.getByText('Act on orders').click();
    await iconsDrawn(owner);
    await screenshotOf(create, 'api-keys-create-1280');
    expect(await seriousProblems(owner)).toEqual([]);
    await create.getByRole('button', { name: 'Create API key' }).click();

    const created = owner.getByRole('dialog', { name: 'API key created' });
    const key = (await created.locator('output[aria-label="API key"]').textContent({ timeout: 30_000 }))!;
    expect(key).toMatch(/^ask_[A-Za-z0-9]{32}$/);
    expect(await created.getByText('This key will not be shown again').isVisible()).toBe(true);
    await screenshotOf(created, 'api-keys-created-1280');
    await created.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('create'), { timeout: 30_000 }).toBe(null);

    const row = owner.locator('.api-keys-table tbody tr').first();
    await row.getByText('Fulfilment service').waitFor({ timeout: 30_000 });
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('orders:readorders:write');
    expect(cells[2]).toBe(`ask_…${key.slice(-4)}`);
    expect(await owner.getByText(key).count()).toBe(0);
    expect((await app.request('/api/admin/orders', { token: key })).status).toBe(200);
    await iconsDrawn(owner);
    await screenshot(owner, 'api-keys-list-1280');
    expect(await seriousProblems(owner)).toEqual([]);

    // On a phone: the list within the screen.
    await owner.setViewportSize(PHONE);
    await owner.goto('/admindash?view=api-keys');
    await row.getByText('Fulfilment service').waitFor({ timeout: 30_000 });
    await iconsDrawn(owner);
    await screenshot(owner, 'api-keys-list-390');
    const box = await row.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await owner.setViewportSize({ width: 1280, height: 800 });

    await row.getByRole('button', { name: 'Revoke Fulfilment service' }).click();
    const alert = owner.getByRole('alertdialog');
    await alert.getByText('Revoke Fulfilment service?').waitFor({ timeout: 30_000 });
    await alert.getByRole('button', { name: 'Revoke API key' }).click();
    await toast(owner, 'API key “Fulfilment service” revoked');
    await row.getByText('Revoked', { exact: true }).waitFor({ timeout: 30_000 });
    expect((await app.request('/api/admin/orders', { token: key })).status).toBe(401);
    await screenshot(owner, 'api-keys-revoked-1280');
  });
});
