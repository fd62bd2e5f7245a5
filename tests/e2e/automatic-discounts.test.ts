import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite({ deliveryPollSeconds: 3600 });

/** A cart as the storefront keeps it: one card for three recipients and one album. */
const cartOf = (cardId: number, albumId: number) => [
  {
    id: 'line-card',
    productId: cardId,
    name: 'Balloon Birthday',
    quantity: 3,
    personalisation: {
      recipients: [
        { name: 'Grace', email: 'grace@example.com' },
        { name: 'Linus', email: 'linus@example.com' },
        { name: 'Margaret', email: 'margaret@example.com' },
      ],
      senderName: 'Ada',
      message: 'Happy birthday, {name}!',
      deliveryDate: null,
      deliveryTime: '09:00',
      timeZone: 'UTC',
    },
  },
  { id: 'line-album', productId: albumId, name: 'Summer Songs Album', quantity: 1, personalisation: null },
];

describe('automatic discounts in a real browser', () => {
  it('the admin creates "3 cards, 15 % off"; the cart and the payment page show it by name with the saving', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());

    // The console: Discounts, "New automatic discount" (its dialog in the address).
    const admin = await newContext(browser, app.url);
    admin.setDefaultNavigationTimeout(90_000);
    const console_ = await admin.newPage();
    await signIn(console_);
    await console_.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await console_.goto('/admindash?view=discounts');
    await expect.poll(() => console_.getByRole('button', { name: 'New automatic discount' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await console_.getByRole('button', { name: 'New automatic discount' }).click();
    const dialog = console_.getByRole('dialog', { name: 'New automatic discount' });
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(new URL(console_.url()).searchParams.get('action')).toBe('new-automatic');
    await dialog.getByLabel('Name').fill('3 cards, 15 % off');
    await dialog.getByLabel('Cards (or more)').fill('3');
    await dialog.getByLabel('Percent off the cards').fill('15');
    await screenshotOf(dialog, 'automatic-discount-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(false);
    const table = console_.getByRole('table', { name: 'Automatic discounts' });
    await expect.poll(async () => (await table.isVisible()) && (await table.innerText()), { timeout: 30_000 }).toMatch(/3 cards, 15 % off\s+3 or more cards: 15% off the cards/);
    await screenshot(console_, 'automatic-discounts-console');
    // The code's dialog has its rules: products, categories (the seeded one listed), a minimum subtotal, once per customer, a first order only.
    await console_.getByRole('button', { name: 'New code' }).click();
    const codeDialog = console_.getByRole('dialog', { name: 'New discount code' });
    await expect.poll(() => codeDialog.getByRole('group', { name: 'Categories' }).getByText('Birthday').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await codeDialog.getByText('Once per customer (by account or e-mail address)').isVisible()).toBe(true);
    await screenshotOf(codeDialog, 'discount-code-rules-dialog');
    // On a phone the dialog stays within the screen, its paired fields one above the other.
    await console_.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(async () => {
        const box = await codeDialog.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 390;
      }, { timeout: 30_000 })
      .toBe(true);
    await screenshotOf(codeDialog, 'discount-code-rules-dialog-390');
    await codeDialog.getByRole('button', { name: 'Cancel' }).click();
    await console_.setViewportSize({ width: 1280, height: 800 });

    // The shopper's cart: 3 cards of $4.50 and an album; 15 % of the cards' $13.50 is $2.03.
    const shopper = await newContext(browser, app.url);
    shopper.setDefaultNavigationTimeout(90_000);
    const page = await shopper.newPage();
    await page.goto('/');
    await page.evaluate((cart) => localStorage.setItem('cart', JSON.stringify(cart)), cartOf(shop.cardId, shop.albumId));
    await page.goto('/cart');
    const discount = page.getByTestId('cart-discount');
    await expect.poll(() => discount.isVisible(), { timeout: 30_000 }).toBe(true);
    expect((await discount.innerText()).replace(/\s+/g, ' ')).toBe('3 cards, 15 % off −$2.03');
    await expect.poll(() => page.getByTestId('cart-total').innerText(), { timeout: 30_000 }).toBe('$23.47');
    await screenshot(page, 'cart-automatic-discount');

    // The payment page's summary says the same.
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/payments', { timeout: 30_000 });
    const line = page.getByTestId('checkout-discount');
    await expect.poll(() => line.isVisible(), { timeout: 30_000 }).toBe(true);
    expect((await line.innerText()).replace(/\s+/g, ' ')).toBe('3 cards, 15 % off −$2.03');
    await screenshot(page, 'payments-automatic-discount');
  });
});
