import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { iconsDrawn, PASSWORD, PHONE, register } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { outbox, seedShop } from '../helpers/order-fixtures.js';

/**
 * A membership given as a present (contract section 18): the owner's gift membership product; a
 * shopper chooses a plan on its page, says for whom and pays; the recipient's e-mail has the code and
 * a link to /membership, where they sign in (coming back with the code filled in), redeem it and are
 * a member whose e-cards are included. At 1280×800 and 390×844.
 */
const suite = browserSuite();

async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('a gift membership in a real browser', () => {
  it('is chosen, paid for, e-mailed with its code and redeemed by its recipient, whose e-cards are then included', { timeout: 300_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    for (const json of [
      { name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 },
      { name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 20 },
    ]) {
      expect((await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json })).status).toBe(201);
    }
    const types: { id: number; name: string }[] = await (await app.request('/api/product_types')).json();
    const [album] = await app.sql<{ category_id: number; main_image_id: number }>('select category_id, main_image_id from product where id = $1', [shop.albumId]);
    const created = await app.request('/api/products', {
      method: 'POST',
      token: admin,
      json: { product: { name: 'Gift Membership', description: 'A month or a year of cards for someone you love.', price: 4.99, product_type_id: types.find((t) => t.name === 'Gift Membership')!.id, category_id: album!.category_id, main_image_id: album!.main_image_id }, tags: [], e_greeting_card_data: null },
    });
    expect(created.status).toBe(201);
    const productId = (await created.json()).product.id as number;
    await register(app, 'grace');

    // (a) /membership offers it; its page offers the plans, and the form names what is missing.
    const buyer = await (await newContext(browser, app.url)).newPage();
    await buyer.goto('/membership');
    await buyer.getByRole('link', { name: 'Give a membership' }).click({ timeout: 30_000 });
    await buyer.waitForURL((url) => url.pathname === `/product/${productId}`, { timeout: 30_000 });
    await buyer.getByRole('heading', { name: 'Gift Membership', level: 1 }).waitFor({ timeout: 30_000 });
    await buyer.locator('.membership-plan-card', { hasText: '$39.00 a year' }).click({ timeout: 30_000 });
    expect(await buyer.getByRole('radio', { name: /Card Lover Yearly/ }).isChecked()).toBe(true);
    await buyer.getByRole('button', { name: 'Add to cart · $39.00' }).click();
    await buyer.getByText("Enter the recipient's name.").waitFor({ timeout: 30_000 });
    await buyer.getByLabel("Recipient's name").fill('Grace Hopper');
    await buyer.getByLabel("Recipient's e-mail").fill('grace@example.com');
    await buyer.getByLabel('Your name').fill('Ada');
    await buyer.getByLabel('Message').fill('A year of cards, with love.');
    await shot(buyer, 'gift-membership-product-1280');
    await buyer.getByRole('button', { name: 'Add to cart · $39.00' }).click();
    await buyer.getByText('A Card Lover Yearly membership ($39.00) for Grace Hopper is in your cart.').waitFor({ timeout: 30_000 });
    expect(await seriousProblems(buyer, SHOPPERS)).toEqual([]);
    await buyer.setViewportSize(PHONE);
    expect(await fitsWidth(buyer)).toBe(true);
    await shot(buyer, 'gift-membership-product-390');
    await buyer.setViewportSize({ width: 1280, height: 800 });

    // (b) The cart prices it at the plan's price; the checkout charges it.
    await buyer.goto('/cart');
    const line = buyer.locator('.cart-line').first();
    await expect.poll(() => line.locator('.cart-card-details').textContent(), { timeout: 30_000 }).toBe('Card Lover Yearly membership of $39.00 for Grace Hopper <grace@example.com> · from Ada · its code is e-mailed once paid');
    await expect.poll(() => buyer.getByTestId('cart-total').textContent(), { timeout: 30_000 }).toBe('$39.00');
    await buyer.getByRole('button', { name: 'Checkout' }).click();
    await buyer.getByRole('button', { name: 'Pay $39.00' }).waitFor({ timeout: 30_000 });
    await buyer.getByLabel('Your e-mail').fill('ada@example.com');
    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry').fill('1230');
    await buyer.getByLabel('Security code').fill('123');
    await buyer.getByRole('button', { name: 'Pay $39.00' }).click();
    await buyer.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    expect(await app.sql(`select status, recipient_email from gift_membership`)).toEqual([{ status: 'unredeemed', recipient_email: 'grace@example.com' }]);

    // (c) The recipient's e-mail: the code and the link to redeem it.
    await app.services.deliveries.runDue();
    let mail: string | undefined;
    await expect.poll(() => (mail = [...outbox(app).values()].find((text) => text.includes('To: grace@example.com') && text.includes('membership'))) !== undefined, { timeout: 30_000 }).toBe(true);
    expect(mail).toContain('Subject: Ada gave you a year of Art & Song Cards membership');
    const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail!)![1]!;
    const link = new URL(/Redeem your membership: (\S+)/.exec(mail!)![1]!);
    expect(link.pathname + link.hash).toBe(`/membership#gift=${code}`);

    // (d) She follows it signed out, signs in from the page and comes back with the code filled in.
    const grace = await (await newContext(browser, app.url)).newPage();
    await grace.goto(link.pathname + link.hash);
    await grace.getByRole('link', { name: 'Sign in to redeem it' }).click({ timeout: 30_000 });
    await grace.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    await grace.getByLabel('Username').fill('grace');
    await grace.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await grace.getByRole('button', { name: 'Login', exact: true }).click();
    await grace.waitForURL((url) => url.pathname === '/membership', { timeout: 30_000 });
    const field = grace.getByLabel('The code from your e-mail');
    await expect.poll(() => field.inputValue(), { timeout: 30_000 }).toBe(code);

    // A wrong code first: the shop's reason under the field; then hers.
    await field.fill('AAAA-AAAA-AAAA-AAAA');
    await grace.getByRole('button', { name: 'Redeem' }).click();
    await grace.getByText('No gift membership has this code.', { exact: false }).waitFor({ timeout: 30_000 });
    await field.fill(code.toLowerCase());
    await field.press('Enter');
    const summary = grace.getByRole('region', { name: 'Your Card Lover Yearly membership' });
    await summary.waitFor({ timeout: 30_000 });
    await expect.poll(() => summary.locator('.membership-summary-state').textContent(), { timeout: 30_000 }).toMatch(/^A present: ends on .+, and never renews or charges you$/);
    expect(await summary.getByText('Ada', { exact: true }).count()).toBe(1);
    expect(await summary.getByRole('button', { name: 'Cancel membership' }).count()).toBe(0);
    expect(await grace.getByLabel('The code from your e-mail').count()).toBe(0);
    expect(new URL(grace.url()).hash).toBe('');
    expect(await app.sql(`select status from gift_membership`)).toEqual([{ status: 'redeemed' }]);
    expect(await seriousProblems(grace, SHOPPERS)).toEqual([]);
    await shot(grace, 'gift-membership-redeemed-1280');
    await grace.setViewportSize(PHONE);
    expect(await fitsWidth(grace)).toBe(true);
    await shot(grace, 'gift-membership-redeemed-390');
    await grace.setViewportSize({ width: 1280, height: 800 });

    // (e) Her e-cards are included now.
    await grace.evaluate((id) => localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: id, name: 'Summer Songs Album', quantity: 1, personalisation: null }])), shop.albumId);
    await grace.goto('/cart');
    await expect.poll(() => grace.locator('.cart-member-note').first().textContent(), { timeout: 30_000 }).toBe('Members: 20 % off');
    await buyer.context().close();
    await grace.context().close();
  });
});
