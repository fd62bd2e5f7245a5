import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot, signIn } from '../helpers/browser.js';
import { seedShop, type Shop } from '../helpers/order-fixtures.js';

const suite = browserSuite();
let seeded: Promise<Shop> | undefined;
/** The shop of these tests, seeded by the first that needs it. */
const shopOnce = async () => (seeded ??= suite.app.login().then((token) => seedShop(suite.app, token)));

/** A phone: what most shoppers open the shop on. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('storefront pages drawn by the server, on a phone', () => {
  it('show their first screen before any script runs, then come alive without a hydration error', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await shopOnce();

    // No JavaScript at all: the server's HTML alone carries the content.
    const bare = await newContext(browser, app.url, { ...PHONE, javaScriptEnabled: false });
    const still = await bare.newPage();
    await still.goto('/');
    expect(await still.getByRole('heading', { name: 'Art & Song Cards' }).isVisible()).toBe(true);
    expect(await still.getByRole('link', { name: /Balloon Birthday/ }).count()).toBe(1);
    await still.goto(`/product/${shop.cardId}`);
    expect(await still.getByRole('heading', { name: 'Balloon Birthday' }).isVisible()).toBe(true);
    await still.goto('/shop');
    expect(await still.locator('.product-tile').count()).toBe(2);
    await still.goto('/blog');
    expect(await still.getByRole('heading', { name: 'Blog' }).isVisible()).toBe(true);
    await bare.close();

    // With JavaScript: React takes the page over as it is, and it answers the shopper.
    const context = await newContext(browser, app.url, PHONE);
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('link', { name: /Balloon Birthday/ }).count(), { timeout: 10_000 }).toBe(1);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'phone-home');
    await page.getByRole('link', { name: 'Shop' }).first().click();
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);

    await page.goto(`/product/${shop.cardId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Balloon Birthday' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'phone-product');
    await page.getByLabel('Your message').fill('Hello from a phone');
    await expect.poll(() => page.getByText('18 / 500').isVisible(), { timeout: 10_000 }).toBe(true);

    // An album goes straight into the cart: the hydrated button works.
    await page.goto(`/product/${shop.albumId}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');

    // A press made before the app has taken the page over is held, then answered.
    await page.goto(`/product/${shop.albumId}`, { waitUntil: 'domcontentloaded' });
    const early = await page.evaluate(() => {
      const waiting = document.getElementById('root')!.getAttribute('aria-disabled') === 'true';
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Add to cart'))!;
      button.click();
      return waiting;
    });
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('2');
    console.log(`a press ${early ? 'before' : 'after'} hydration was answered`);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });

  it('opens a card of the cart for a change on a page the server drew, its form filled from the cart', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await shopOnce();
    const context = await newContext(browser, app.url, PHONE);
    const page = await context.newPage();
    await page.goto(`/product/${shop.cardId}`);
    await expect.poll(() => page.getByRole('button', { name: 'Add to cart' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator('#root').getAttribute('aria-disabled'), { timeout: 10_000 }).toBe(null);
    await page.getByLabel("Recipient's name").fill('Ada');
    await page.getByLabel("Recipient's e-mail").fill('ada@example.com');
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Your message').fill('Many happy returns');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');
    const lineId = await page.evaluate(() => (JSON.parse(localStorage.getItem('cart') ?? '[]') as { id: string }[])[0]?.id);
    expect(lineId).toBeTruthy();

    // A full load of the address the cart's Edit button opens: the server draws the page without the cart.
    await page.goto(`/product/${shop.cardId}?line=${lineId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Change your card' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByLabel("Recipient's name").inputValue(), { timeout: 10_000 }).toBe('Ada');
    expect(await page.getByLabel('Your message').inputValue()).toBe('Many happy returns');
    await page.getByLabel('Your message').fill('Many happy returns, Ada');
    await page.getByRole('button', { name: 'Update card in cart' }).click();
    await expect.poll(() => page.evaluate(() => new URL(location.href).pathname), { timeout: 10_000 }).toBe('/cart');
    const saved = await page.evaluate(() => (JSON.parse(localStorage.getItem('cart') ?? '[]') as { personalisation: { message: string } }[]).map((line) => line.personalisation.message));
    expect(saved).toEqual(['Many happy returns, Ada']);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });

  it('keeps the theme of the cookie for a visitor whose browser storage has no choice (cleared), as the server drew it', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url, PHONE);
    await context.addCookies([{ name: 'theme', value: 'light', url: app.url }]);
    const page = await context.newPage();
    await page.goto('/shop');
    // Once boot.js has run and the app has taken over (boot.js marks the page busy until then), the page is still light and the cookie still says so.
    await expect.poll(() => page.evaluate(() => (window as { storefrontDrawnTheme?: string }).storefrontDrawnTheme !== undefined && !document.getElementById('root')!.hasAttribute('aria-disabled')), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Switch to dark theme' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(false);
    expect((await context.cookies()).find((cookie) => cookie.name === 'theme')?.value).toBe('light');
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });

  it("hydrates a returning visitor's page (light theme, a cart, signed in) and then shows their own view", { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url, PHONE);
    await context.addInitScript(() => localStorage.setItem('theme', 'light'));
    const page = await context.newPage();
    await page.goto('/shop');
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.locator('.product-tile').last().click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).not.toBe('');

    await signIn(page);
    await expect.poll(() => page.getByRole('button', { name: 'Account' }).isVisible(), { timeout: 10_000 }).toBe(true);
    for (const pathname of ['/', '/shop', '/blog']) {
      await page.goto(pathname);
      // The server drew the anonymous view; the signed-in admin's menus follow right after.
      await expect.poll(() => page.getByRole('button', { name: 'Account' }).isVisible(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => page.getByRole('button', { name: 'Admin', exact: true }).isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(false);
      await expect.poll(() => page.getByRole('button', { name: 'Switch to dark theme' }).count(), { timeout: 10_000 }).toBe(1);
    }
    // The server itself sends the chosen theme (the cookie), so a page never flashes the other one.
    const html = await (await page.request.get('/shop', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<body>');
    expect(html).toContain('aria-label="Switch to dark theme"');
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
