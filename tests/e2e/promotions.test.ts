import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite, hydrationErrors, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { seriousProblems } from '../helpers/axe.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * Scheduled sales in a real browser (contract section 17): the owner plans a sale for a category on
 * "Sales & promotions" (times in the shop's own zone, New York here), sees it running with the
 * products it prices; shoppers then see the badge, the sale price and the regular price struck
 * through on the tiles and the product page, the sale under "On sale" and its banner in the
 * announcement bar, at 1280×800 and 390×844; the sale deleted, the regular prices come back.
 */
const suite = browserSuite();

const SHOP_ZONE = 'America/New_York';
const BANNER = 'Birthday week: 20% off every birthday card and song';
const OWN_ANNOUNCEMENT = 'Free songs on every card';

/** An instant as a datetime-local value in the shop's zone ("2026-05-01T09:00"). */
function inShopZone(instant: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: SHOP_ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

const toast = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });
const tileNames = (page: Page) => page.locator('.product-tile-name').allTextContents();
const tilePrice = (page: Page, name: string) => page.locator('.product-tile', { hasText: name }).locator('.product-tile-price').textContent();

describe('scheduled sales in a real browser', () => {
  it('the owner runs a sale for a category; shoppers see it everywhere until it is deleted', { timeout: 300_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    // Birthday (its card $4.50, its album $12) with a subcategory (an album $5); Christmas beside it.
    const shop = await seedShop(app, token);
    const birthday = (await app.sql<{ id: number }>(`select id from category where name = 'Birthday'`))[0]!.id;
    const belated = await restCategory(app, token, 'Belated', birthday);
    const christmas = await restCategory(app, token, 'Christmas');
    for (const [name, price, categoryId] of [['Late Balloons', 5, belated], ['Carol Singers', 4, christmas], ['Snowy Village', 5.5, christmas]] as const) {
      const res = await app.request('/api/products', { method: 'POST', token, json: { product: { name, price, status: 'active', category_id: categoryId, product_type_id: 2 }, tags: [] } });
      expect(res.status).toBe(201);
    }
    const settings = await app.graphql(`mutation { updateSettings(input: { timeZone: "${SHOP_ZONE}", announcement: { enabled: true, text: "${OWN_ANNOUNCEMENT}", link: "/shop" } }) { timeZone } }`, {}, token);
    expect(settings.body.errors).toBeUndefined();

    // (a) The owner plans the sale: running now (from a minute ago) until tomorrow.
    const owner = await newContext(browser, app.url);
    const page = await owner.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    // The screen has an address of its own; the console's `?view=` form of it moves there.
    await page.goto('/admindash?view=promotions');
    await page.waitForURL((url) => url.pathname === '/admindash/promotions', { timeout: 30_000 });
    await page.getByText('No sales yet').waitFor({ timeout: 30_000 });
    expect(await page.getByText(`${SHOP_ZONE} (GMT-`).isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'Sales & promotions' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'New sale' }).first().click();
    await expect.poll(() => new URL(page.url()).search, { timeout: 30_000 }).toBe('?sale=new');
    const dialog = page.getByRole('dialog', { name: 'New sale' });
    await dialog.getByLabel('Name').fill('Birthday week');
    await dialog.getByLabel('Percent', { exact: true }).fill('20');
    // Nothing chosen yet: the shop's rule says so under Products, and nothing is saved.
    await dialog.getByRole('button', { name: 'Create sale' }).click();
    await dialog.getByText('Choose the products or categories the sale is for.').waitFor({ timeout: 30_000 });
    expect(await app.sql(`select id from sale`)).toEqual([]);

    await dialog.getByLabel('Categories').fill('birth');
    await page.getByRole('option', { name: 'Birthday', exact: true }).click({ timeout: 30_000 });
    await dialog.getByLabel('Products').fill('carol');
    await page.getByRole('option', { name: /^Carol Singers/ }).click({ timeout: 30_000 });
    // A click beside the picker closes its list (Escape would close the dialog too).
    await dialog.getByLabel('Name').click();
    await expect.poll(() => dialog.locator('.bp6-tag').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Carol Singers', 'Birthday']));
    // The message went with the change that answered it.
    expect(await dialog.getByText('Choose the products or categories the sale is for.').count()).toBe(0);

    // An amount the server refuses: its message under the amount, and still nothing saved.
    await dialog.getByText('Amount off', { exact: true }).click();
    await dialog.getByLabel('Amount', { exact: true }).fill('1.234');
    await dialog.getByRole('button', { name: 'Create sale' }).click();
    await dialog.getByText('at most two decimals').waitFor({ timeout: 30_000 });
    expect(await app.sql(`select id from sale`)).toEqual([]);
    await dialog.getByText('Percent off', { exact: true }).click();
    await dialog.getByLabel('Percent', { exact: true }).fill('20');
    const now = Date.now();
    await dialog.getByLabel('Starts').fill(inShopZone(new Date(now - 60_000)));
    await dialog.getByLabel('Ends').fill(inShopZone(new Date(now + 86_400_000)));
    await dialog.getByLabel('Banner (optional)').fill(BANNER);
    await expect.poll(() => dialog.locator('.sale-banner-preview .announcement-body').textContent(), { timeout: 30_000 }).toBe(`${BANNER}→`);
    await screenshotOf(dialog, 'promotions-dialog-1280');
    expect(await seriousProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create sale' }).click();
    await toast(page, 'Sale created.');
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    expect(new URL(page.url()).search).toBe('');

    // Saved with the times read in the shop's zone: the start a minute ago (to the minute), the end tomorrow.
    const [saved] = await app.sql<{ id: number; percent_off: number; starts_at: Date; ends_at: Date; banner: string }>(`select id, percent_off, starts_at, ends_at, banner from sale`);
    expect(saved!.percent_off).toBe(20);
    expect(saved!.banner).toBe(BANNER);
    expect(Math.abs(saved!.starts_at.getTime() - (now - 60_000))).toBeLessThan(60_000);
    expect(Math.abs(saved!.ends_at.getTime() - (now + 86_400_000))).toBeLessThan(60_000);

    // Listed as running: the card, both albums of Birthday and Belated, and Carol Singers priced by it.
    const row = page.locator('tr', { hasText: 'Birthday week' });
    await expect.poll(() => row.locator('.promotions-state-cell').textContent(), { timeout: 30_000 }).toBe('Running');
    expect(await row.locator('.promotions-amount').textContent()).toBe('20% off');
    expect(await row.locator('.promotions-covers').textContent()).toBe('1 product, Birthday');
    await expect.poll(() => row.locator('.promotions-priced').textContent(), { timeout: 30_000 }).toBe('4');
    await screenshot(page, 'promotions-1280');
    // "Sale created." would fade away by itself after 3 s: close it as a person may, and judge the page
    // once it has gone, not half way through its fading.
    const close = page.locator('.bp6-toast', { hasText: 'Sale created.' }).getByRole('button', { name: 'Close' });
    if (await close.isVisible()) await close.click({ timeout: 5_000 }).catch(() => undefined); // gone meanwhile: nothing to close
    await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 30_000 });
    expect(await seriousProblems(page)).toEqual([]);

    // On a phone: the sale as a card, and its dialog (opened from the address) within the screen.
    await page.setViewportSize(PHONE);
    await page.goto(`/admindash/promotions?sale=${saved!.id}`);
    const edit = page.getByRole('dialog', { name: 'Edit sale' });
    await expect.poll(() => edit.getByLabel('Name').inputValue(), { timeout: 30_000 }).toBe('Birthday week');
    await expect.poll(() => edit.locator('.bp6-tag').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Carol Singers', 'Birthday']));
    const box = await edit.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshotOf(edit, 'promotions-dialog-390');
    // A day longer: the end moves, the start (left as it was) stays to the second.
    await edit.getByLabel('Ends').fill(inShopZone(new Date(now + 2 * 86_400_000)));
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Sale updated');
    await edit.waitFor({ state: 'hidden', timeout: 30_000 });
    const [longer] = await app.sql<{ starts_at: Date; ends_at: Date }>(`select starts_at, ends_at from sale`);
    expect(longer!.starts_at.getTime()).toBe(saved!.starts_at.getTime());
    expect(Math.abs(longer!.ends_at.getTime() - (now + 2 * 86_400_000))).toBeLessThan(60_000);
    await expect.poll(() => row.locator('.promotions-state-cell').textContent(), { timeout: 30_000 }).toBe('Running');
    const rowBox = await row.boundingBox();
    expect(rowBox!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'promotions-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // (b) Shoppers see the sale, on a desktop and a phone.
    const shoppers: BrowserContext[] = [];
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const context = await newContext(browser, app.url, { viewport });
      shoppers.push(context);
      const shopper = await context.newPage();
      await shopper.goto('/shop');
      await expect.poll(() => tileNames(shopper), { timeout: 30_000 }).toHaveLength(5);
      await expect.poll(() => tilePrice(shopper, 'Balloon Birthday'), { timeout: 30_000 }).toBe('Sale: $3.60, was $4.50');
      expect(await shopper.locator('.product-tile', { hasText: 'Balloon Birthday' }).locator('s').textContent()).toBe('$4.50');
      expect(await tilePrice(shopper, 'Late Balloons')).toBe('Sale: $4.00, was $5.00');
      expect(await tilePrice(shopper, 'Carol Singers')).toBe('Sale: $3.20, was $4.00');
      expect(await tilePrice(shopper, 'Snowy Village')).toBe('$5.50');
      // The banner instead of the owner's announcement, linking to the sale.
      const bar = shopper.getByRole('region', { name: 'Announcement' });
      await expect.poll(() => bar.locator('.announcement-text').textContent(), { timeout: 30_000 }).toBe(BANNER);
      expect(await bar.getByRole('link').getAttribute('href')).toBe('/shop?on_sale=1');
      await screenshot(shopper, `promotions-shop-${viewport.width}`);

      await shopper.locator('label.shop-on-sale').click();
      await expect.poll(() => tileNames(shopper), { timeout: 30_000 }).toEqual(['Balloon Birthday', 'Carol Singers', 'Late Balloons', 'Summer Songs Album']);
      await screenshot(shopper, `promotions-shop-on-sale-${viewport.width}`);

      await shopper.goto(`/product/${shop.cardId}`);
      await expect.poll(() => shopper.locator('.product-price').textContent(), { timeout: 30_000 }).toBe('Sale: $3.60, was $4.50');
      expect(await shopper.locator('.product-price .sale-badge').isVisible()).toBe(true);
      await screenshot(shopper, `promotions-product-${viewport.width}`);
      expect(hydrationErrors(context)).toEqual([]);
    }

    // (c) The owner deletes the sale (after a question); the shop's regular prices and announcement come back.
    await page.goto('/admindash/promotions');
    await page.getByRole('button', { name: 'Delete Birthday week' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(page.url()).search, { timeout: 30_000 }).toBe(`?sale=${saved!.id}&action=delete`);
    const alert = page.getByRole('alertdialog');
    await alert.getByText('Its products go back to their regular prices at once').waitFor({ timeout: 30_000 });
    await alert.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Sale “Birthday week” deleted');
    await page.getByText('No sales yet').waitFor({ timeout: 30_000 });
    expect(await app.sql(`select id from sale`)).toEqual([]);

    for (const context of shoppers) {
      const shopper = context.pages()[0]!;
      await shopper.goto('/shop');
      await expect.poll(() => tilePrice(shopper, 'Balloon Birthday'), { timeout: 30_000 }).toBe('$4.50');
      expect(await shopper.locator('.sale-badge').count()).toBe(0);
      await expect.poll(() => shopper.getByRole('region', { name: 'Announcement' }).locator('.announcement-text').textContent(), { timeout: 30_000 }).toBe(OWN_ANNOUNCEMENT);
      await shopper.goto(`/product/${shop.cardId}`);
      await expect.poll(() => shopper.locator('.product-price').textContent(), { timeout: 30_000 }).toBe('$4.50');
      await context.close();
    }
    await owner.close();
  });
});
