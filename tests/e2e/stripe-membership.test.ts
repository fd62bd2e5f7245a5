import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { iconsDrawn, PHONE, register, signedIn } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, screenshot } from '../helpers/browser.js';
import { standInStripe } from '../helpers/stripe-browser.js';
import { StripeFake } from '../helpers/stripe-fake.js';

/**
 * Joining through Stripe Billing in a browser (contract section 18): on /membership the card goes
 * into Stripe's card element (the Stripe.js stand-in of tests/helpers/stripe-browser.ts, whose
 * confirmations the test answers as Stripe would, with its signed events). A declined card says so
 * and keeps nothing but the unpaid start; another card pays the same subscription, and the page
 * shows the membership once Stripe's event has made it active. Cancel and resume reach Stripe.
 */
const fake = new StripeFake();
await fake.start();
const suite = browserSuite({
  deliveryPollSeconds: 3600,
  paymentProvider: 'stripe',
  stripe: { secretKey: fake.secretKey, publishableKey: 'pk_test_browser', webhookSecret: fake.webhookSecret, apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port } },
});
afterAll(() => fake.stop());

async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('memberships with Stripe', () => {
  it("a shopper joins with Stripe's card element: a decline is said, another card pays, the webhook makes it active", { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    for (const json of [
      { name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 },
      { name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 15 },
    ]) {
      expect((await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json })).status).toBe(201);
    }
    await register(app, 'mia');
    const page = await signedIn(browser, app, 'mia');
    const { confirmations } = await standInStripe(page.context(), app, fake);
    await page.goto('/membership');

    // The card goes to Stripe: its element, not the shop's own fields nor the test card's hint.
    const stripeCard = page.getByLabel('Card number (Stripe)');
    await stripeCard.waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Card number', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Your card goes straight to Stripe').isVisible()).toBe(true);
    expect(await page.getByText('This shop takes test payments').count()).toBe(0);
    await page.locator('.membership-plan-card', { hasText: '$4.99 a month' }).click();
    const join = page.getByRole('button', { name: 'Become a member · $4.99 a month' });
    await join.waitFor({ timeout: 30_000 });
    await shot(page, 'membership-stripe-join-1280');

    // Declined: said on the page; the membership is started but gives nothing.
    await stripeCard.fill('4000 0000 0000 0002');
    await join.click();
    const declined = page.getByRole('alert').filter({ hasText: 'Payment declined' });
    await declined.waitFor({ timeout: 30_000 });
    expect(await declined.innerText()).toContain('Your card was declined. Nothing was charged: try another card.');
    expect(await app.sql('select status from membership')).toEqual([{ status: 'incomplete' }]);
    await shot(page, 'membership-stripe-declined-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    // Another card pays the same subscription; the page waits for Stripe's word, then shows the membership.
    await stripeCard.fill('4242 4242 4242 4242');
    await join.click();
    const summary = page.getByRole('region', { name: 'Your Card Lover membership' });
    await summary.waitFor({ timeout: 45_000 });
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toMatch(/^Renews on /);
    expect(await summary.locator('.membership-facts').innerText()).toContain('Ending 4242');
    expect(fake.billing.subscriptions.size).toBe(1);
    const [subscription] = [...fake.billing.subscriptions.values()];
    expect(subscription!.status).toBe('active');
    expect(confirmations.map((c) => [c.key, c.card.replace(/\s/g, ''), c.email])).toEqual([
      ['pk_test_browser', '4000000000000002', 'mia@example.com'],
      ['pk_test_browser', '4242424242424242', 'mia@example.com'],
    ]);
    expect(await app.sql('select status from membership')).toEqual([{ status: 'active' }]);
    const history = page.getByRole('table', { name: 'Payment history' }).locator('tbody tr');
    await expect.poll(() => history.count(), { timeout: 30_000 }).toBe(1);
    expect(await history.first().innerText()).toContain('$4.99');
    expect(await page.getByRole('button', { name: /Become a member/ }).count()).toBe(0);
    await shot(page, 'membership-stripe-member-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    // Cancel (confirmed) and resume go to Stripe.
    await summary.getByRole('button', { name: 'Cancel membership' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel membership' }).click();
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toMatch(/^Cancelled: ends on /);
    expect(fake.billing.subscriptions.get(subscription!.id)!.cancel_at_period_end).toBe(true);
    await summary.getByRole('button', { name: 'Resume membership' }).click();
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toMatch(/^Renews on /);
    expect(fake.billing.subscriptions.get(subscription!.id)!.cancel_at_period_end).toBe(false);
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'membership-stripe-member-390');
  });

  it('a membership started and not paid says so on the page, and is paid from there', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await register(app, 'noor');
    const token = await app.login('noor', 'customer-pass-1');
    const [yearly] = await app.sql<{ id: number }>(`select id from membership_plan where name = 'Card Lover Yearly'`);
    // Started elsewhere (another tab, a reload in the middle): incomplete, with its invoice open at Stripe.
    expect((await app.request('/api/membership', { method: 'POST', token, json: { plan_id: yearly!.id } })).status).toBe(201);
    const page = await signedIn(browser, app, 'noor');
    await standInStripe(page.context(), app, fake);
    await page.goto('/membership');
    const notice = page.getByRole('status').filter({ hasText: 'Your Card Lover Yearly membership is not paid yet' });
    await notice.waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Finish joining' }).waitFor();
    expect(await page.getByRole('radio', { name: /Card Lover Yearly/ }).isChecked()).toBe(true);
    await shot(page, 'membership-stripe-started-1280');
    const subscriptions = fake.billing.subscriptions.size;
    await page.getByLabel('Card number (Stripe)').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Become a member · $39.00 a year' }).click();
    const summary = page.getByRole('region', { name: 'Your Card Lover Yearly membership' });
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 45_000 }).toMatch(/^Renews on /);
    // The subscription started before was the one paid.
    expect(fake.billing.subscriptions.size).toBe(subscriptions);
  });
});
