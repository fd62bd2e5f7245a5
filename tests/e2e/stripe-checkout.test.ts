import { afterAll, describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';
import { standInStripe } from '../helpers/stripe-browser.js';
import { StripeFake } from '../helpers/stripe-fake.js';

/**
 * The Stripe checkout in a browser. The machine has no internet, so Stripe.js is a small stand-in
 * (tests/helpers/stripe-browser.ts) whose confirmations the test answers as Stripe would: it
 * confirms the intent in the local fake and sends the signed webhook.
 */
const fake = new StripeFake();
await fake.start();
const suite = browserSuite({
  deliveryPollSeconds: 3600,
  paymentProvider: 'stripe',
  stripe: { secretKey: fake.secretKey, publishableKey: 'pk_test_browser', webhookSecret: fake.webhookSecret, apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port } },
});
afterAll(() => fake.stop());

describe('checkout with Stripe', () => {
  it("pays through Stripe's card element: a decline keeps the checkout, another card pays, the webhook confirms", { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const { confirmations } = await standInStripe(context, app, fake);
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate((albumId) => {
      localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: albumId, name: 'Summer Songs Album', quantity: 1, personalisation: null }]));
    }, shop.albumId);
    await page.goto('/payments');
    const stripeCard = page.getByLabel('Card number (Stripe)');
    await expect.poll(() => stripeCard.isVisible(), { timeout: 15_000 }).toBe(true);
    // The shop's own card fields are not shown: the card goes to Stripe.
    expect(await page.getByLabel('Card number', { exact: true }).isVisible()).toBe(false);
    expect(await page.getByText('Your card goes straight to Stripe').isVisible()).toBe(true);
    await page.getByLabel('Your e-mail').fill('ada@example.com');
    await stripeCard.fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $12.00' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('Your card was declined.');
    await screenshot(page, 'store-payment-stripe-declined');
    const [pending] = await app.sql<{ id: string; status: string }>('select id, status from "order"');
    expect(pending!.status).toBe('pending');

    await stripeCard.fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $12.00' }).click();
    await page.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    // The retry was the same checkout: the same order and the same PaymentIntent.
    expect(page.url().split('/').pop()).toBe(pending!.id);
    expect(fake.intents.size).toBe(1);
    expect(confirmations.map((c) => c.key)).toEqual(['pk_test_browser', 'pk_test_browser']);
    const orders = await app.sql<{ status: string; card_last4: string; total: string }>('select status, card_last4, total from "order"');
    // Paid by the webhook; the album's receipt may already have gone out too (then it is delivered).
    expect(orders).toEqual([{ status: expect.stringMatching(/^(paid|delivered)$/), card_last4: '4242', total: '12.00' }]);
    await expect.poll(() => page.getByText('Thank you! Your order is confirmed.').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'store-confirmation-stripe');
  });
});
