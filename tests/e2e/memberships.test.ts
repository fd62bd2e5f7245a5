import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PASSWORD, PHONE, iconsDrawn, register, signedIn } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { PAY_OK, seedShop } from '../helpers/order-fixtures.js';

/**
 * Memberships in a real browser (contract section 18): the owner creates "Card Lover" ($4.99 a
 * month, e-cards included, 10 % off) and a yearly plan in the console, the shop's reasons on their
 * fields; a visitor finds the plans from the footer and signs in from the page; the shopper becomes a
 * member with the test card (a declined card first); the cart and the payment page price the card at
 * $0.00 "Included in your membership" and the album 10 % off, and the order is placed; the member
 * cancels (confirmed), sees when it ends, resumes; My orders names the membership. A member whose
 * renewal was declined is told until when the benefits last and pays again. At 1280×800 and 390×844.
 */
const suite = browserSuite();

async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}

async function shotOf(locator: Locator, name: string): Promise<void> {
  await iconsDrawn(locator.page());
  await screenshotOf(locator, name);
}

/** A date as the shopper's browser writes it ("February 15, 2027"). */
const longDate = (page: Page, at: Date) => page.evaluate((iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' }), at.toISOString());
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const cells = (row: Locator) => row.locator('td').allInnerTexts();

/** A card for Grace and an album, as the storefront keeps its cart. */
const cartOf = (cardId: number, albumId: number) => [
  {
    id: 'line-card',
    productId: cardId,
    name: 'Balloon Birthday',
    quantity: 1,
    personalisation: { recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Mia', message: 'Happy birthday, Grace!', deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' },
  },
  { id: 'line-album', productId: albumId, name: 'Summer Songs Album', quantity: 1, personalisation: null },
];

async function payWith(page: Page, cardNumber: string): Promise<void> {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry').fill('1230');
  await page.getByLabel('Security code').fill('123');
}

describe('memberships in a real browser', () => {
  it('the owner offers plans; a shopper becomes a member, saves at checkout, cancels and resumes', { timeout: 300_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    await register(app, 'mia');

    // (a) The console: Memberships after Gift cards; "New plan" in the address, the shop's reasons on their fields.
    const owner = await (await newContext(browser, app.url)).newPage();
    await signIn(owner);
    await owner.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await owner.goto('/admindash?view=gift-cards');
    await owner.getByRole('menuitem', { name: 'Memberships' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(owner.url()).search, { timeout: 30_000 }).toBe('?view=memberships');
    await owner.getByText('No membership plans yet').waitFor({ timeout: 30_000 });
    await owner.getByRole('button', { name: 'New plan' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('plan'), { timeout: 30_000 }).toBe('new');
    const dialog = owner.getByRole('dialog', { name: 'New plan' });
    await dialog.getByLabel('Name').fill('Card Lover');
    await dialog.getByLabel('Price').fill('4.99');
    await dialog.getByLabel('Percent off albums and collections').fill('95');
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await dialog.getByText('The percentage off albums and collections is a whole number from 0 to 90.').waitFor({ timeout: 30_000 });
    await dialog.getByLabel('Percent off albums and collections').fill('10');
    await shotOf(dialog, 'memberships-plan-dialog-1280');
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    expect(new URL(owner.url()).searchParams.get('plan')).toBeNull();
    const rows = owner.getByRole('table', { name: 'Membership plans' }).locator('tbody tr');
    await expect.poll(() => cells(rows.first()), { timeout: 30_000 }).toEqual(['Card Lover', '$4.99', 'Month', 'Yes', '10 %', 'Offered', '']);
    // A name taken is said on the name; a yearly plan besides.
    await owner.getByRole('button', { name: 'New plan' }).click();
    await dialog.getByLabel('Name').fill('Card Lover');
    await dialog.getByLabel('Price').fill('39');
    await dialog.getByRole('radio', { name: 'Year' }).click();
    await dialog.getByLabel('Percent off albums and collections').fill('15');
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await dialog.getByText('A plan with this name already exists.').waitFor({ timeout: 30_000 });
    await dialog.getByLabel('Name').fill('Card Lover Yearly');
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await cells(rows.nth(1))).toEqual(['Card Lover Yearly', '$39.00', 'Year', 'Yes', '15 %', 'Offered', '']);
    await shot(owner, 'memberships-console-1280');
    expect(await seriousProblems(owner)).toEqual([]);
    const [yearly] = await app.sql<{ id: number }>(`select id from membership_plan where name = 'Card Lover Yearly'`);

    // (b) A visitor finds the plans from the footer, then signs in from the page and comes back to it.
    const page = await (await newContext(browser, app.url)).newPage();
    await page.goto('/shop');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Membership' }).click({ timeout: 30_000 });
    await page.waitForURL((url) => url.pathname === '/membership', { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Membership', level: 1 }).waitFor({ timeout: 30_000 });
    const plans = page.locator('.membership-plan');
    await expect.poll(() => plans.allInnerTexts(), { timeout: 30_000 }).toEqual([
      'Card Lover\n$4.99 a month\nE-cards included\n10 % off albums and collections',
      'Card Lover Yearly\n$39.00 a year\nE-cards included\n15 % off albums and collections',
    ]);
    await shot(page, 'membership-signed-out-1280');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'membership-signed-out-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Sign in to become a member' }).click();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    await page.getByLabel('Username').fill('mia');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/membership', { timeout: 30_000 });

    // (c) Signed in: the plans to choose from and the card form; a declined card keeps nothing, the test card pays.
    const planCard = (price: string) => page.locator('.membership-plan-card', { hasText: price });
    await planCard('$39.00 a year').click({ timeout: 30_000 });
    expect(await page.getByRole('radio', { name: /Card Lover Yearly/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Become a member · $39.00 a year' }).waitFor({ timeout: 30_000 });
    await planCard('$4.99 a month').click();
    const join = page.getByRole('button', { name: 'Become a member · $4.99 a month' });
    await join.waitFor({ timeout: 30_000 });
    await join.click();
    await page.getByText('Enter the card number.').waitFor({ timeout: 30_000 });
    await payWith(page, '4000 0000 0000 0002');
    await join.click();
    await page.getByRole('alert').filter({ hasText: 'Payment declined' }).waitFor({ timeout: 30_000 });
    expect(await app.sql('select id from membership')).toEqual([]);
    await shot(page, 'membership-join-declined-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);
    await payWith(page, PAY_OK.cardNumber);
    await join.click();
    const summary = page.getByRole('region', { name: 'Your Card Lover membership' });
    await summary.waitFor({ timeout: 30_000 });
    const [member] = await app.sql<{ current_period_end: Date }>('select current_period_end from membership');
    const renews = await longDate(page, member!.current_period_end);
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toBe(`Renews on ${renews}`);
    expect(await summary.locator('.membership-facts').innerText()).toContain('Ending 4242');
    expect(await page.getByRole('button', { name: /Become a member/ }).count()).toBe(0);
    const history = page.getByRole('table', { name: 'Payment history' }).locator('tbody tr');
    await expect.poll(() => history.count(), { timeout: 30_000 }).toBe(1);
    expect((await cells(history.first())).slice(2)).toEqual(['$4.99', 'Paid']);
    await shot(page, 'membership-member-1280');
    expect(await seriousProblems(page, SHOPPERS)).toEqual([]);

    // (d) The cart: the card included, the album 10 % off, the plan named; the payment page says the same.
    await page.evaluate((cart) => localStorage.setItem('cart', JSON.stringify(cart)), cartOf(shop.cardId, shop.albumId));
    await page.goto('/cart');
    await expect.poll(() => page.getByTestId('cart-total').innerText(), { timeout: 30_000 }).toBe('$10.80');
    const [cardLine, albumLine] = [page.locator('.cart-line').nth(0), page.locator('.cart-line').nth(1)];
    expect(await cardLine.locator('.cart-member-note').innerText()).toBe('Included in your membership');
    // The regular price struck through, read as "Now: $0.00, was $4.50".
    expect(await cardLine.locator('.cart-line-total').textContent()).toBe('Now: $0.00, was $4.50');
    expect(await cardLine.locator('.cart-line-total s').innerText()).toBe('$4.50');
    expect(await albumLine.locator('.cart-member-note').innerText()).toBe('Members: 10 % off');
    expect(await albumLine.locator('.cart-line-total s').innerText()).toBe('$12.00');
    expect((await page.getByTestId('cart-membership').innerText()).replace(/\s+/g, ' ')).toBe('Card Lover membership You save $5.70');
    await shot(page, 'membership-cart-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'membership-cart-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/payments', { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('checkout-membership').isVisible(), { timeout: 30_000 }).toBe(true);
    expect((await page.getByTestId('checkout-membership').innerText()).replace(/\s+/g, ' ')).toBe('Card Lover membership You save $5.70');
    expect(await page.locator('.checkout-member-note').allInnerTexts()).toEqual(['Included in your membership', 'Members: 10 % off']);
    if (!(await page.getByLabel('Your e-mail').inputValue())) await page.getByLabel('Your e-mail').fill('mia@example.com');
    await payWith(page, PAY_OK.cardNumber);
    await shot(page, 'membership-payments-1280');
    await page.getByRole('button', { name: 'Pay $10.80' }).click();
    await page.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    const [order] = await app.sql<{ total: string; membership_id: number | null }>('select total::text, membership_id from "order"');
    expect(order).toEqual({ total: '10.80', membership_id: expect.any(Number) });

    // (e) Cancel (confirmed: the benefits last to the end of the period), then resume.
    await page.goto('/membership');
    await summary.getByRole('button', { name: 'Cancel membership' }).click({ timeout: 30_000 });
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(`its benefits last until ${renews}`, { exact: false }).waitFor({ timeout: 30_000 });
    await shotOf(confirm, 'membership-cancel-1280');
    await confirm.getByRole('button', { name: 'Cancel membership' }).click();
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toBe(`Cancelled: ends on ${renews}`);
    expect((await app.sql<{ cancel_at_period_end: boolean }>('select cancel_at_period_end from membership'))[0]!.cancel_at_period_end).toBe(true);
    await shot(page, 'membership-cancelled-1280');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'membership-cancelled-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await summary.getByRole('button', { name: 'Resume membership' }).click();
    await expect.poll(() => summary.getByRole('status').innerText(), { timeout: 30_000 }).toBe(`Renews on ${renews}`);

    // (f) My orders names the membership, with a way to its page.
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Membership' });
    await expect.poll(() => section.innerText(), { timeout: 30_000 }).toContain(`Card Lover`);
    expect(await section.innerText()).toContain(`Renews on ${renews}`);
    expect(await section.getByRole('link', { name: 'Membership details' }).getAttribute('href')).toBe('/membership');
    await shot(page, 'membership-account-1280');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'membership-account-390');

    // (g) A renewal declined: the benefits last 7 more days, and the member pays again with another card.
    const dora = await app.customer('dora');
    const started = await app.request('/api/membership', { method: 'POST', token: dora, json: { plan_id: yearly!.id, payment: { ...PAY_OK, cardNumber: '4000 0000 0000 0341' } } });
    expect(started.status).toBe(201);
    // Its period ends now: the renewal (what the renewals' timer runs) charges the card, which declines.
    await app.sql(`update membership set current_period_end = now() - interval '1 second' where user_id = (select id from app_user where username = 'dora')`);
    await app.services.membershipRenewals.runDue(app.orm.em.fork());
    const due = await signedIn(browser, app, 'dora');
    await due.goto('/membership');
    const pastDue = due.getByRole('region', { name: 'Your Card Lover Yearly membership' });
    await expect.poll(() => pastDue.getByRole('status').innerText(), { timeout: 30_000 }).toMatch(/^Renewal declined: the benefits last until /);
    await pastDue.getByText('Your renewal was declined').waitFor({ timeout: 30_000 });
    expect(await due.getByRole('table', { name: 'Payment history' }).locator('tbody tr').first().innerText()).toContain('Your card was declined at renewal.');
    await shot(due, 'membership-past-due-1280');
    await due.setViewportSize(PHONE);
    expect(await fitsWidth(due)).toBe(true);
    await shot(due, 'membership-past-due-390');
    await payWith(due, PAY_OK.cardNumber);
    await due.getByRole('button', { name: 'Become a member · $39.00 a year' }).click();
    await expect.poll(() => due.getByRole('region', { name: 'Your Card Lover Yearly membership' }).getByRole('status').innerText(), { timeout: 30_000 }).toMatch(/^Renews on /);
    await shot(due, 'membership-member-390');

    // (h) The console on a phone: the plans as blocks within the screen, a plan's dialog (its id in the address) too.
    await owner.setViewportSize(PHONE);
    await owner.goto(`/admindash?view=memberships&plan=${yearly!.id}`);
    const edit = owner.getByRole('dialog', { name: 'Edit plan Card Lover Yearly' });
    await edit.getByLabel('Name').waitFor({ timeout: 30_000 });
    const box = await edit.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await edit.getByLabel('Price').inputValue()).toBe('39.00');
    await shotOf(edit, 'memberships-plan-dialog-390');
    await edit.getByText('Offered on the Membership page').click();
    expect(await edit.getByLabel('Offered on the Membership page').isChecked()).toBe(false);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => rows.nth(1).innerText(), { timeout: 30_000 }).toContain('Not offered');
    expect(await fitsWidth(owner)).toBe(true);
    await shot(owner, 'memberships-console-390');
  });
});
