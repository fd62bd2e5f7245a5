import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { iconsDrawn } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { outbox, seedShop } from '../helpers/order-fixtures.js';

/**
 * A gift card bought in the shop and spent by someone else (contract section 18): a shopper picks
 * an amount on a gift card's page, says whom it is for and pays; its recipient gets an e-mail with
 * the code and a page that shows the card; with the code they pay for an album. At 1280×800 and
 * 390×844.
 */
const suite = browserSuite();

async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}

describe('a gift card bought in a real browser', () => {
  it('is chosen, paid for, e-mailed with its code, shown on its page and spent by its recipient', { timeout: 300_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    const types: { id: number; name: string }[] = await (await app.request('/api/product_types')).json();
    const [album] = await app.sql<{ category_id: number; main_image_id: number }>('select category_id, main_image_id from product where id = $1', [shop.albumId]);
    const created = await app.request('/api/products', {
      method: 'POST',
      token: admin,
      json: { product: { name: 'Gift Card — Roses', description: 'Let them choose their own cards and songs.', price: 25, product_type_id: types.find((t) => t.name === 'Gift Card')!.id, category_id: album!.category_id, main_image_id: album!.main_image_id }, tags: [], e_greeting_card_data: null },
    });
    expect(created.status).toBe(201);
    const productId = (await created.json()).product.id as number;

    // (a) The buyer picks $25 (after a typed amount the shop does not sell), and says for whom.
    const buyer = await (await newContext(browser, app.url)).newPage();
    await buyer.goto(`/product/${productId}`);
    await buyer.getByRole('heading', { name: 'Gift Card — Roses' }).waitFor({ timeout: 30_000 });
    expect(await buyer.locator('.product-price').textContent()).toBe('$10.00 to $500.00');
    await buyer.getByLabel('Another amount, $10 to $500').fill('600');
    await buyer.getByLabel("Recipient's name").fill('Grace Hopper');
    await buyer.getByLabel("Recipient's e-mail").fill('grace@example.com');
    await buyer.getByLabel('Your name').fill('Ada');
    await buyer.getByLabel('Message').fill('Choose something that sings!');
    await buyer.getByRole('button', { name: 'Add to cart' }).click();
    await buyer.getByText('Choose an amount from $10 to $500.').waitFor({ timeout: 30_000 });
    await buyer.getByRole('button', { name: '$25', exact: true }).click();
    expect(await buyer.getByRole('button', { name: '$25', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await shot(buyer, 'gift-card-product-1280');
    await buyer.getByRole('button', { name: 'Add to cart · $25.00' }).click();
    await buyer.getByText('A $25.00 gift card for Grace Hopper is in your cart.').waitFor({ timeout: 30_000 });
    expect(await seriousProblems(buyer, SHOPPERS)).toEqual([]);

    // (b) The cart prices it at the amount chosen; the checkout charges it.
    await buyer.goto('/cart');
    const line = buyer.locator('.cart-line').first();
    await expect.poll(() => line.locator('.cart-card-details').textContent(), { timeout: 30_000 }).toBe('Gift card of $25.00 to Grace Hopper <grace@example.com> · from Ada · e-mailed once paid');
    await expect.poll(() => buyer.getByTestId('cart-total').textContent(), { timeout: 30_000 }).toBe('$25.00');
    await shot(buyer, 'gift-card-cart-1280');
    await buyer.getByRole('button', { name: 'Checkout' }).click();
    await buyer.getByRole('button', { name: 'Pay $25.00' }).waitFor({ timeout: 30_000 });
    await buyer.getByLabel('Your e-mail').fill('ada@example.com');
    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry').fill('1230');
    await buyer.getByLabel('Security code').fill('123');
    await buyer.getByRole('button', { name: 'Pay $25.00' }).click();
    await buyer.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    const [card] = await app.sql<{ id: number; balance: string; source: string; recipient_email: string }>(`select id, balance::text, source, recipient_email from gift_card`);
    expect(card).toMatchObject({ balance: '25.00', source: 'purchased', recipient_email: 'grace@example.com' });

    // (c) Its recipient's e-mail has the code and the link to its page.
    await app.services.deliveries.runDue();
    let mail: string | undefined;
    await expect.poll(() => (mail = [...outbox(app).values()].find((text) => text.includes('To: grace@example.com') && text.includes('gift card'))) !== undefined, { timeout: 30_000 }).toBe(true);
    expect(mail).toContain('Subject: Ada sent you a $25.00 Art & Song Cards gift card');
    const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail!)![1]!;

    // (d) The page shows the card: the design, the giver, the message, the code and what is left.
    for (const [width, height, name] of [[1280, 800, 'gift-card-page-1280'], [390, 844, 'gift-card-page-390']] as const) {
      const recipient = await (await newContext(browser, app.url, { viewport: { width, height } })).newPage();
      await recipient.goto(`/gift-card#${code}`);
      await recipient.getByRole('heading', { name: 'A gift card from Ada' }).waitFor({ timeout: 30_000 });
      expect(await recipient.locator('.gift-card-amount').textContent()).toBe('$25.00');
      expect(await recipient.locator('.gift-card-message').textContent()).toBe('Choose something that sings!');
      expect(await recipient.getByLabel('Gift card code').textContent()).toBe(code);
      expect(await recipient.getByRole('status').textContent()).toContain('$25.00 left');
      await expect.poll(() => recipient.locator('.gift-card-design').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
      // Nothing on the page is wider than the screen.
      expect(await recipient.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(recipient, name);
      if (width === 1280) expect(await seriousProblems(recipient, SHOPPERS)).toEqual([]);
      await recipient.context().close();
    }

    // (e) The recipient spends it on an album ($12.00): the gift card pays it all.
    const grace = await (await newContext(browser, app.url)).newPage();
    await grace.goto('/');
    await grace.evaluate((id) => localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: id, name: 'Summer Songs Album', quantity: 1, personalisation: null }])), shop.albumId);
    await grace.goto('/payments');
    await grace.getByRole('button', { name: 'Pay $12.00' }).waitFor({ timeout: 30_000 });
    await grace.getByLabel('Your e-mail').fill('grace@example.com');
    await grace.getByLabel('Gift card', { exact: true }).fill(code);
    await grace.getByRole('button', { name: 'Apply gift card' }).click();
    await grace.getByRole('button', { name: 'Place order' }).click({ timeout: 30_000 });
    await grace.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    await expect.poll(async () => (await app.sql<{ balance: string }>('select balance::text from gift_card where id = $1', [card!.id]))[0]!.balance, { timeout: 30_000 }).toBe('13.00');
    await buyer.context().close();
    await grace.context().close();
  });
});
