import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PHONE, iconsDrawn, register, signedIn } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, escapeDialog, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * Gift cards in a real browser (contract section 18): the owner issues a $30 card in the console
 * and reads its code once; a shopper checks its balance on /gift-cards, pays a whole order with it
 * (no card asked for), then part of another with the rest on a card, and sees the split on the
 * confirmation and in My orders. Back in the console the balance, the outstanding balance and the
 * ledger follow; an adjustment adds to it; voided while a shopper is paying with it, the checkout
 * says so on the gift card's field. At 1280×800 and 390×844.
 */
const LOOKUPS_PER_HOUR = 8;
const suite = browserSuite({ limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, discountCodesPerHour: 10_000, giftCardLookupsPerHour: LOOKUPS_PER_HOUR } });

/** A photograph once the screen's icons (fetched one by one) are drawn. */
async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}

async function shotOf(dialog: Locator, name: string): Promise<void> {
  await iconsDrawn(dialog.page());
  await screenshotOf(dialog, name);
}

const toast = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });
const text = (page: Page, selector: string) => page.locator(selector).first().textContent();
const rowCells = (page: Page) => page.locator('.gift-cards-table tbody tr').first().locator('td').allTextContents();

/** Puts `quantity` albums in the shopper's cart and opens the payment page. */
async function checkout(page: Page, albumId: number, quantity: number): Promise<void> {
  await page.evaluate(
    ([id, count]) => localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: id, name: 'Summer Songs Album', quantity: count, personalisation: null }])),
    [albumId, quantity] as const,
  );
  await page.goto('/payments');
  await expect.poll(() => page.getByRole('button', { name: `Pay $${(12 * quantity).toFixed(2)}` }).isVisible(), { timeout: 30_000 }).toBe(true);
}

async function applyGiftCard(page: Page, code: string): Promise<void> {
  await page.getByLabel('Gift card', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Apply gift card' }).click();
}

describe('gift cards in a real browser', () => {
  it('the owner issues a card; a shopper checks it and pays with it; the console follows every change', { timeout: 420_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    await register(app, 'gina');

    // (a) The owner issues a $30 card: the field at fault first, then the code, shown once.
    const owner = await (await newContext(browser, app.url)).newPage();
    await signIn(owner);
    await owner.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await owner.goto('/admindash?view=discounts');
    await owner.getByRole('menuitem', { name: 'Gift cards' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(owner.url()).search, { timeout: 30_000 }).toBe('?view=gift-cards');
    await owner.getByText('No gift cards yet').waitFor({ timeout: 30_000 });
    expect(await text(owner, '.gift-cards-outstanding-amount')).toBe('$0.00');
    await owner.getByRole('button', { name: 'Issue gift card' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('issue'), { timeout: 30_000 }).toBe('1');
    const issue = owner.getByRole('dialog', { name: 'Issue gift card' });
    await issue.getByLabel('Amount').fill('1500');
    await issue.getByLabel('Reason').fill('Goodwill: a card that arrived late');
    await issue.getByRole('button', { name: 'Issue gift card' }).click();
    await issue.getByText('The amount is from 1.00 to 1000.00.').waitFor({ timeout: 30_000 });
    expect(await app.sql('select id from gift_card')).toEqual([]);
    await issue.getByLabel('Amount').fill('30');
    await issue.getByRole('button', { name: 'Issue gift card' }).click();
    const issued = owner.getByRole('dialog', { name: 'Gift card issued' });
    const code = (await issued.locator('.gift-card-issued-code-text').textContent({ timeout: 30_000 }))!;
    expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    const last4 = code.slice(-4);
    expect(await issued.getByText('This code will not be shown again').isVisible()).toBe(true);
    expect(await issued.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await shotOf(issued, 'gift-cards-issued-1280');
    // Only its digest and last four are kept.
    const [kept] = await app.sql<{ row: string }>('select row_to_json(g)::text as row from gift_card g');
    expect(kept!.row).not.toContain(code.replace(/-/g, ''));
    await issued.getByRole('button', { name: 'Done' }).click();
    await issued.waitFor({ state: 'hidden', timeout: 30_000 });
    expect(new URL(owner.url()).searchParams.get('issue')).toBeNull();
    await expect.poll(() => rowCells(owner), { timeout: 30_000 }).toEqual(expect.arrayContaining([`····${last4}`, '$30.00', 'Active', 'Issued', 'Goodwill: a card that arrived late']));
    await expect.poll(() => text(owner, '.gift-cards-outstanding-amount'), { timeout: 30_000 }).toBe('$30.00');
    await shot(owner, 'gift-cards-console-1280');
    expect(await seriousProblems(owner)).toEqual([]);

    // (b) A shopper finds the balance page from the footer: an unknown code says so, the card its balance.
    const shopper = await signedIn(browser, app, 'gina');
    await shopper.goto('/shop');
    await shopper.getByRole('contentinfo').getByRole('link', { name: 'Gift card balance' }).click({ timeout: 30_000 });
    await shopper.waitForURL((url) => url.pathname === '/gift-cards', { timeout: 30_000 });
    await shopper.getByRole('heading', { name: 'Check your gift card balance' }).waitFor({ timeout: 30_000 });
    await shopper.getByLabel('Gift card code').fill('AAAA-CCCC-DDDD-EEEE');
    await shopper.getByRole('button', { name: 'Check balance' }).click();
    await shopper.getByText('No gift card has this code.', { exact: false }).waitFor({ timeout: 30_000 });
    await shopper.getByLabel('Gift card code').fill(code.toLowerCase());
    await shopper.getByRole('button', { name: 'Check balance' }).click();
    await shopper.getByText(`Gift card ····${last4}: $30.00 left`).waitFor({ timeout: 30_000 });
    await shot(shopper, 'gift-cards-balance-1280');
    expect(await seriousProblems(shopper, SHOPPERS)).toEqual([]);

    // (c) Two albums ($24): the card pays everything, no card is asked for.
    await checkout(shopper, shop.albumId, 2);
    await applyGiftCard(shopper, code);
    const split = shopper.getByTestId('checkout-gift-card');
    await expect.poll(() => split.textContent(), { timeout: 30_000 }).toBe(`Gift card ····${last4}−$24.00To pay by card$0.00`);
    expect(await shopper.getByLabel('Gift card applied').textContent()).toContain('$30.00 balance, pays $24.00');
    expect(await shopper.getByLabel('Card number').isVisible()).toBe(false);
    await shot(shopper, 'gift-cards-checkout-covered-1280');
    await shopper.getByRole('button', { name: 'Place order' }).click();
    await shopper.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    const totals = shopper.locator('.confirmation-totals');
    await expect.poll(() => totals.textContent(), { timeout: 30_000 }).toBe(`Total$24.00Gift card ····${last4}−$24.00Paid by card$0.00`);
    expect(await shopper.locator('.confirmation-facts').textContent()).toContain('$24.00 with a gift card');

    // (d) One album ($12): the card pays what is left on it ($6), the test card the rest.
    await checkout(shopper, shop.albumId, 1);
    await applyGiftCard(shopper, code);
    await expect.poll(() => split.textContent(), { timeout: 30_000 }).toBe(`Gift card ····${last4}−$6.00To pay by card$6.00`);
    expect(await shopper.getByLabel('Card number').isVisible()).toBe(true);
    await shopper.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shopper.getByLabel('Expiry').fill('1230');
    await shopper.getByLabel('Security code').fill('123');
    await shot(shopper, 'gift-cards-checkout-split-1280');
    await shopper.getByRole('button', { name: 'Pay $6.00' }).click();
    await shopper.waitForURL(/\/order-confirmation\//, { timeout: 30_000 });
    const secondOrder = new URL(shopper.url()).pathname.split('/').at(-1)!;
    await expect.poll(() => totals.textContent(), { timeout: 30_000 }).toBe(`Total$12.00Gift card ····${last4}−$6.00Paid by card$6.00`);
    expect(await shopper.locator('.confirmation-facts').textContent()).toContain('$12.00 with a gift card and the card ending 4242');
    await shot(shopper, 'gift-cards-confirmation-1280');
    expect(await app.sql(`select total, gift_card_amount, gift_card_last4 from "order" order by created_at`)).toEqual([
      { total: '24.00', gift_card_amount: '24.00', gift_card_last4: last4 },
      { total: '12.00', gift_card_amount: '6.00', gift_card_last4: last4 },
    ]);

    // My orders says the same.
    await shopper.goto('/account');
    await expect.poll(() => shopper.locator('.account-order-split').allTextContents(), { timeout: 30_000 }).toEqual([`Gift card ····${last4} −$6.00 · Paid by card $6.00`, `Gift card ····${last4} −$24.00 · Paid by card $0.00`]);
    await shot(shopper, 'gift-cards-my-orders-1280');

    // (e) The console: the card used up, nothing outstanding, the ledger with both orders.
    await owner.reload();
    await expect.poll(() => rowCells(owner), { timeout: 30_000 }).toEqual(expect.arrayContaining([`····${last4}`, '$0.00', '$30.00', 'Used up']));
    await expect.poll(() => text(owner, '.gift-cards-outstanding-amount'), { timeout: 30_000 }).toBe('$0.00');
    await owner.locator('.gift-cards-table tbody tr').first().click();
    const ledger = owner.getByRole('dialog', { name: `Gift card ····${last4}` });
    await expect.poll(() => ledger.locator('.gift-card-ledger tbody tr').count(), { timeout: 30_000 }).toBe(3);
    const entries = () => ledger.locator('.gift-card-ledger tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent)));
    expect((await entries())[0]).toEqual(['IssuedGoodwill: a card that arrived late · by admin', '+$30.00', '$30.00']);
    expect((await entries())[1]![0]).toMatch(/^Spent on an orderorder [0-9A-F]{8}$/);
    expect((await entries())[1]!.slice(1)).toEqual(['−$24.00', '$6.00']);
    expect((await entries())[2]!.slice(1)).toEqual(['−$6.00', '$0.00']);
    expect(new URL(owner.url()).searchParams.get('giftCard')).toMatch(/^\d+$/);
    await shotOf(ledger, 'gift-cards-ledger-1280');

    // (f) Adjust from the ledger: $10 back on the card, with the reason.
    await ledger.getByRole('button', { name: 'Adjust' }).click();
    const adjust = owner.getByRole('dialog', { name: `Adjust gift card ····${last4}` });
    await adjust.getByLabel('Amount').fill('10');
    await adjust.getByText('+$10.00: the balance becomes $10.00').waitFor({ timeout: 30_000 });
    await adjust.getByRole('button', { name: 'Adjust balance' }).click();
    await adjust.getByText('Say why', { exact: false }).waitFor({ timeout: 30_000 });
    await adjust.getByLabel('Reason').fill('Sorry for the wait');
    await shotOf(adjust, 'gift-cards-adjust-1280');
    await adjust.getByRole('button', { name: 'Adjust balance' }).click();
    await toast(owner, `Gift card ····${last4} now holds $10.00`);
    await adjust.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => ledger.locator('.gift-card-ledger tbody tr').count(), { timeout: 30_000 }).toBe(4);
    expect((await entries())[3]).toEqual(['AdjustedSorry for the wait · by admin', '+$10.00', '$10.00']);
    await escapeDialog(owner);
    await ledger.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => text(owner, '.gift-cards-outstanding-amount'), { timeout: 30_000 }).toBe('$10.00');

    // (g) The shopper applies it ($10 of $12); the owner voids it meanwhile; paying says so on the gift card.
    await checkout(shopper, shop.albumId, 1);
    await applyGiftCard(shopper, code);
    await expect.poll(() => split.textContent(), { timeout: 30_000 }).toBe(`Gift card ····${last4}−$10.00To pay by card$2.00`);
    await owner.getByRole('button', { name: `Void ····${last4}` }).click();
    const voiding = owner.getByRole('alertdialog');
    await voiding.getByText('Its balance of $10.00 is gone for good', { exact: false }).waitFor({ timeout: 30_000 });
    await voiding.getByRole('button', { name: 'Void gift card' }).click();
    await voiding.getByText('Say why the card is voided.').waitFor({ timeout: 30_000 });
    await voiding.getByLabel('Reason').fill('Reported stolen');
    await shotOf(voiding, 'gift-cards-void-1280');
    await voiding.getByRole('button', { name: 'Void gift card' }).click();
    await toast(owner, `Gift card ····${last4} voided`);
    await expect.poll(() => rowCells(owner), { timeout: 30_000 }).toEqual(expect.arrayContaining(['$0.00', 'Voided']));
    expect(await owner.getByRole('button', { name: `Void ····${last4}` }).count()).toBe(0);
    expect(await owner.getByRole('button', { name: `Adjust ····${last4}` }).count()).toBe(0);
    await expect.poll(() => text(owner, '.gift-cards-outstanding-amount'), { timeout: 30_000 }).toBe('$0.00');

    await shopper.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shopper.getByLabel('Expiry').fill('1230');
    await shopper.getByLabel('Security code').fill('123');
    await shopper.getByRole('button', { name: 'Pay $2.00' }).click();
    await shopper.getByText('This gift card was voided and cannot be used.').waitFor({ timeout: 30_000 });
    await expect.poll(() => shopper.getByRole('button', { name: 'Pay $12.00' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await shopper.getByLabel('Gift card', { exact: true }).inputValue()).toBe(code);
    expect(new URL(shopper.url()).pathname).toBe('/payments');
    await shot(shopper, 'gift-cards-checkout-voided-1280');

    // The order paid with it shows the split in Order Details, with a way to the card.
    await owner.goto(`/admindash?view=orders&order=${secondOrder}`);
    const details = owner.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.locator('.order-details-facts').textContent(), { timeout: 30_000 }).toContain(`Gift card····${last4} −$6.00Paid by card$6.00 · card ending 4242`);
    await shotOf(details, 'gift-cards-order-details-1280');
    await details.getByRole('link', { name: `····${last4}` }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('search'), { timeout: 30_000 }).toBe(last4);
    await expect.poll(() => owner.locator('.gift-cards-table tbody tr').count(), { timeout: 30_000 }).toBe(1);
    await owner.getByLabel('Search gift cards').fill('NONE');
    await owner.getByText('No gift cards match “NONE”').waitFor({ timeout: 30_000 });
    await owner.getByLabel('Search gift cards').fill('');

    // (h) On a phone: the console's list, the ledger and the issue dialog within the screen.
    await owner.setViewportSize(PHONE);
    await owner.goto('/admindash?view=gift-cards');
    await expect.poll(() => owner.locator('.gift-cards-table tbody tr').count(), { timeout: 30_000 }).toBe(1);
    const row = await owner.locator('.gift-cards-table tbody tr').first().boundingBox();
    expect(row!.x + row!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(owner, 'gift-cards-console-390');
    await owner.locator('.gift-cards-table tbody tr').first().click();
    await expect.poll(() => ledger.locator('.gift-card-ledger tbody tr').count(), { timeout: 30_000 }).toBe(5);
    const ledgerBox = await ledger.boundingBox();
    expect(ledgerBox!.x).toBeGreaterThanOrEqual(0);
    expect(ledgerBox!.x + ledgerBox!.width).toBeLessThanOrEqual(PHONE.width);
    await shotOf(ledger, 'gift-cards-ledger-390');
    await owner.goto('/admindash?view=gift-cards&issue=1');
    await issue.getByLabel('Amount').waitFor({ timeout: 30_000 });
    const issueBox = await issue.boundingBox();
    expect(issueBox!.x).toBeGreaterThanOrEqual(0);
    expect(issueBox!.x + issueBox!.width).toBeLessThanOrEqual(PHONE.width);
    await shotOf(issue, 'gift-cards-issue-390');

    // (i) The balance page on a phone; after the hour's look-ups it says to wait.
    await shopper.setViewportSize(PHONE);
    await shopper.goto('/gift-cards');
    await shopper.getByLabel('Gift card code').fill(code);
    let limited = false;
    for (let attempt = 0; attempt < LOOKUPS_PER_HOUR && !limited; attempt++) {
      await shopper.getByRole('button', { name: 'Check balance' }).click();
      await expect.poll(async () => (await shopper.getByRole('status').count()) + (await shopper.getByText('Too many gift card codes').count()), { timeout: 30_000 }).toBeGreaterThan(0);
      limited = (await shopper.getByText('Too many gift card codes').count()) > 0;
      if (attempt === 0) {
        expect(await shopper.getByText(`Gift card ····${last4}: $0.00 left`).isVisible()).toBe(true);
        await shot(shopper, 'gift-cards-balance-390');
      }
      if (!limited) {
        await shopper.getByLabel('Gift card code').fill('');
        await shopper.getByLabel('Gift card code').fill(code);
      }
    }
    expect(limited).toBe(true);
    expect(await shopper.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(shopper, 'gift-cards-balance-limited-390');
  });
});
