import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, signIn } from '../helpers/browser.js';
import { orderInput, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { invite } from '../helpers/staff-fixtures.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';

const suite = browserSuite();

describe('accessibility (axe-core)', () => {
  it('finds no serious problem (on the storefront\'s pages, no moderate one either) on the storefront, a product page with its opening card, an e-card, My orders, the admin console with its day-two views and the staff invitation page', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems: Record<string, string[]> = {};

    for (const [pathname, ready] of [
      ['/', () => page.getByRole('heading', { name: 'Art & Song Cards' }).isVisible()],
      ['/shop', async () => (await page.locator('.product-tile').count()) === 2],
      [`/product/${shop.cardId}`, () => page.locator('.opening-card .cover').isVisible()],
    ] as const) {
      await page.goto(pathname);
      await expect.poll(ready, { timeout: 15_000 }).toBe(true);
      // Once the app has taken the page over (the server drew it first).
      await page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('aria-disabled'), undefined, { timeout: 15_000 });
      problems[pathname] = await seriousProblems(page, SHOPPERS);
    }
    // The opening card names itself with what it shows.
    await page.getByLabel("Recipient's name").fill('Grace');
    problems['product, personalised'] = await seriousProblems(page, SHOPPERS);
    const coverName = await page.locator('.opening-card .cover').getAttribute('aria-label');

    // A delivered e-card, as its recipient opens it.
    const token = await app.customer('axe_shopper');
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'axe_shopper@example.com' }), token);
    await app.services.deliveries.runDue();
    const card = body.data.placeOrder.items.find((item: { ecardPath: string | null }) => item.ecardPath);
    await page.goto(card.ecardPath);
    await expect.poll(() => page.getByRole('button', { name: /Open the card/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    problems['e-card'] = await seriousProblems(page, SHOPPERS);

    // My orders, and the admin console with its navbar.
    await signIn(page, 'axe_shopper', 'customer-pass-1');
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    await page.goto('/account');
    await expect.poll(() => page.getByRole('heading', { name: 'My orders' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator('.account-card').count(), { timeout: 10_000 }).toBe(1);
    problems['/account'] = await seriousProblems(page, SHOPPERS);

    const admin = await newContext(browser, app.url);
    const console = await admin.newPage();
    await signIn(console);
    await console.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    await console.goto('/admindash');
    await expect.poll(() => console.getByRole('button', { name: /account/i }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => console.locator('.bp6-spinner').count(), { timeout: 15_000 }).toBe(0);
    problems['/admindash'] = await seriousProblems(console);

    // The day-two views, and the page an invited member of staff opens.
    for (const [view, heading] of [['staff', 'Staff'], ['customers', 'Customers'], ['audit', 'Audit log'], ['email', 'E-mail'], ['sales', 'Sales']] as const) {
      await console.goto(`/admindash?view=${view}`);
      await expect.poll(() => console.getByRole('heading', { name: heading, exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => console.locator('.bp6-spinner').count(), { timeout: 15_000 }).toBe(0);
      problems[view] = await seriousProblems(console);
    }
    const invitation = await invite(app, await app.login(), 'axe.staff@example.com');
    await page.goto(`/staff/accept?token=${invitation}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Join the team' }).isVisible(), { timeout: 15_000 }).toBe(true);
    problems['/staff/accept'] = await seriousProblems(page);

    const none = { '/': [], '/shop': [], [`/product/${shop.cardId}`]: [], 'product, personalised': [], 'e-card': [], '/account': [], '/admindash': [] };
    expect(problems).toEqual({ ...none, staff: [], customers: [], audit: [], email: [], sales: [], '/staff/accept': [] });
    expect(coverName).toMatch(/for grace/i);
    await admin.close();
    await context.close();
  });
});
