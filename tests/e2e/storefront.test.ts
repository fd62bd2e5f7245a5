import { describe, expect, it } from 'vitest';
import { linkIn, waitForMail } from '../helpers/account-mail.js';
import { animationsSettled, browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { outbox, seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite();

describe('the shop in a real browser', () => {
  it('takes a shopper from the home page to a paid order and the recipient to the card', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const page = await context.newPage();

    // Home: the hero, the featured card and the categories.
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { name: 'Art & Song Cards' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: /Balloon Birthday/ }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: 'Birthday', exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'store-home');

    // Shop: both products, then a search that finds the card only.
    await page.getByRole('link', { name: 'Shop' }).first().click();
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.locator('.shop-count').textContent(), { timeout: 10_000 }).toBe('2 products');
    await page.getByLabel('Search products').fill('balloon');
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(1);
    expect(page.url()).toContain('q=balloon');
    await expect.poll(() => page.locator('.product-tile-price').first().textContent(), { timeout: 10_000 }).toBe('$4.50');
    await screenshot(page, 'store-shop-search');

    // The card: personalise it and watch the preview.
    await page.locator('.product-tile').first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Balloon Birthday' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel("Recipient's name").fill('Grace Hopper');
    await page.getByLabel("Recipient's e-mail").fill('grace@example.com');
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Your message').fill('Happy birthday, Grace!');
    // The message is typed in the page's own typeface, not the browser's monospace default for a textarea.
    expect(await page.getByLabel('Your message').evaluate((box) => getComputedStyle(box).fontFamily)).toBe(await page.evaluate(() => getComputedStyle(document.body).fontFamily));
    await expect.poll(() => page.getByText('22 / 500').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Open the card' }).click();
    await expect.poll(() => page.getByTestId('preview-message').textContent(), { timeout: 10_000 }).toBe('Happy birthday, Grace!');
    await animationsSettled(page); // the cover's opening animation
    await screenshot(page, 'store-product-personalised');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');

    // The album goes straight in.
    await page.goto(`/product/${shop.albumId}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('2');

    // Cart: priced by the shop, and still there after a reload.
    await page.goto('/cart');
    await expect.poll(() => page.getByTestId('cart-total').textContent(), { timeout: 10_000 }).toBe('$16.50');
    await page.reload();
    await expect.poll(() => page.getByTestId('cart-total').textContent(), { timeout: 10_000 }).toBe('$16.50');
    await page.getByLabel('Quantity of Summer Songs Album').fill('2');
    await page.getByLabel('Quantity of Summer Songs Album').press('Tab');
    await expect.poll(() => page.getByTestId('cart-total').textContent(), { timeout: 10_000 }).toBe('$28.50');
    await screenshot(page, 'store-cart');

    // Payments: declined first, then paid. Every attempt's idempotency key is recorded.
    const keys: string[] = [];
    page.on('request', (request) => {
      const sent = request.url().endsWith('/graphql') ? (request.postDataJSON() as { operationName?: string; variables?: { input?: { idempotencyKey?: string } } } | null) : null;
      if (sent?.operationName === 'PlaceOrder') keys.push(sent.variables!.input!.idempotencyKey!);
    });
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect.poll(() => page.getByText('This shop takes test payments').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('Your e-mail').fill('ada@example.com');
    await page.getByLabel('Card number').fill('4000000000000002');
    await page.getByLabel('Expiry').fill('1230');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $28.50' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('Your card was declined.');
    await screenshot(page, 'store-payment-declined');
    expect(await app.sql('select id from "order"')).toHaveLength(0);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $28.50' }).dblclick();

    // Confirmation, one order, and the card.
    await page.waitForURL(/\/order-confirmation\//);
    // The attempt after a decline is a new checkout with a new key; a double click is the same one.
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys[1]).not.toBe(keys[0]);
    expect(new Set(keys.slice(1)).size).toBe(1);
    await expect.poll(() => page.getByText('Thank you! Your order is confirmed.').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'store-confirmation');
    const orders = await app.sql<{ id: string; total: string; card_last4: string }>('select id, total, card_last4 from "order"');
    expect(orders).toEqual([{ id: page.url().split('/').pop(), total: '28.50', card_last4: '4242' }]);
    expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
    const link = page.locator('a', { hasText: 'View the e-card' });
    expect(await link.getAttribute('target')).toBe('_blank');
    const [ecard] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await ecard.waitForLoadState();
    await ecard.getByRole('button', { name: 'Open the card' }).click();
    await expect.poll(() => ecard.locator('.message p').textContent(), { timeout: 10_000 }).toBe('Happy birthday, Grace!');

    // The recipient's e-mail carries the link to the card.
    await app.services.deliveries.runDue();
    const toGrace = [...outbox(app).values()].find((eml) => eml.includes('To: grace@example.com'));
    expect(toGrace).toContain(new URL(ecard.url()).pathname);
    // The confirmation page names the order by the number its receipt carries.
    const shownNumber = await page.locator('.confirmation-id').textContent();
    expect(shownNumber).toMatch(/^[0-9A-F]{8}$/);
    expect(orders[0]!.id.toUpperCase().startsWith(shownNumber!)).toBe(true);
    await expect.poll(() => [...outbox(app).values()].some((eml) => eml.includes('To: ada@example.com') && eml.includes(`Subject: Your Art & Song Cards order ${shownNumber}`)), { timeout: 30_000 }).toBe(true);
    expect(hydrationErrors(context)).toEqual([]);

    // The guest is offered an account, the order's address filled in; it signs in at once, and the
    // order joins it once the address is confirmed.
    const offer = page.getByRole('region', { name: 'Keep track of your cards' });
    await expect.poll(() => offer.getByLabel('E-mail').inputValue(), { timeout: 10_000 }).toBe('ada@example.com');
    expect(await offer.getByLabel('Username').inputValue()).toBe('ada');
    await offer.getByRole('button', { name: 'Create an account' }).click();
    await expect.poll(() => offer.getByText('Password must be at least 8 characters long.').isVisible(), { timeout: 10_000 }).toBe(true);
    await offer.getByLabel('Choose a password').fill('ada-password-1');
    expect(await offer.getByText('Password must be at least 8 characters long.').count()).toBe(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'store-confirmation-account-offer-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await offer.getByRole('button', { name: 'Create an account' }).click();
    await expect.poll(() => page.getByText('Your account is ready').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'ada: account' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'store-confirmation-account-ready');
    const confirm = await waitForMail(app, 'ada@example.com', 'Confirm your e-mail address');
    const verify = linkIn(confirm, '/verify-email');
    await page.goto(verify.pathname + verify.search);
    await expect.poll(() => page.getByText('Your e-mail address is confirmed.').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.goto('/account');
    await expect.poll(() => page.getByText(`Order ${shownNumber}`).isVisible(), { timeout: 15_000 }).toBe(true);
    await context.close();
  });

  it('drops a product that is gone from the cart, with a notice', async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto('/');
    const [album] = await app.sql<{ id: number }>(`select id from product where name = 'Summer Songs Album'`);
    await page.evaluate((albumId) => {
      localStorage.setItem('cart', JSON.stringify([
        { id: 'gone', productId: 987654, name: 'Retired Card', quantity: 1, personalisation: null },
        { id: 'kept', productId: albumId, name: 'Summer Songs Album', quantity: 1, personalisation: null },
      ]));
    }, album!.id);
    await page.goto('/cart');
    await expect.poll(() => page.getByText('“Retired Card” is no longer available and was removed from your cart.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByTestId('cart-total').textContent(), { timeout: 10_000 }).toBe('$12.00');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('cart')))!).map((l: { id: string }) => l.id)).toEqual(['kept']);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });

  it('fits a phone: shop and product page', async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/shop');
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByLabel('Category').isVisible()).toBe(true);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await screenshot(page, 'store-phone-shop');
    await page.locator('.product-tile').first().click();
    await expect.poll(() => page.locator('.product-info h1').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await overflow()).toBe(0);
    await screenshot(page, 'store-phone-product');
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
