import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { browse, day, hundred, PHONE, signatures } from '../helpers/group-card-browser.js';
import { placeGroupCard, sign } from '../helpers/group-card-fixtures.js';
import { seedShop, type Shop } from '../helpers/order-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';

const suite = browserSuite({ deliveryPollSeconds: 3600, limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, signaturesPerHour: 10_000 } });

let shop: Shop | null = null;
const shopOf = async (app: TestApp) => (shop ??= await seedShop(app, await app.login()));

describe('group cards in a real browser', () => {
  it('a shopper makes a group card, pays, and finds its signing link on the confirmation page', { timeout: 180_000 }, async () => {
    const { app } = suite;
    const shop = await shopOf(app);
    await app.customer('team_lead');
    const context = await browse(suite);
    const page = await context.newPage();
    await signIn(page, 'team_lead', 'customer-pass-1');
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    await page.goto(`/product/${shop.cardId}`);
    await page.getByLabel("Recipient's name").fill('Grace Hopper');
    await page.getByLabel("Recipient's e-mail").fill('grace@example.com');
    await page.getByLabel('Your name').fill('The whole team');
    await page.getByLabel('Your message').fill('Happy retirement, Grace!');
    await page.getByText('Make it a group card').click();
    // A group card goes out on a later day, a week ahead unless chosen; signing closes the evening before.
    await expect.poll(() => page.getByLabel('Delivery date').inputValue(), { timeout: 10_000 }).toBe(day(7));
    await expect.poll(() => page.getByLabel('Collect signatures until').inputValue()).toBe(`${day(6)}T18:00`);
    await page.getByLabel('Delivery date').fill(day(5));
    // The card goes out at 09:00 that day (the hour the form offers): a deadline after it is refused.
    await page.getByLabel('Collect signatures until').fill(`${day(5)}T10:00`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.getByText('Signatures must be collected before the card is delivered.').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('Collect signatures until').fill(`${day(4)}T17:30`);
    await screenshotOf(page.locator('.personalisation-form'), 'group-card-product-form');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');

    await page.goto('/payments');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('1230');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $4.50' }).click();
    await page.waitForURL(/\/order-confirmation\//, { timeout: 15_000 });
    const panel = page.getByRole('region', { name: 'Group card for Grace Hopper' });
    await expect.poll(() => panel.isVisible(), { timeout: 10_000 }).toBe(true);
    const [row] = await app.sql<{ signing_token: string; collect_until: Date; deliver_at: Date }>(
      `select g.signing_token, g.collect_until, i.deliver_at from group_card g join order_item i on i.id = g.item_id join "order" o on o.id = i.order_id join app_user u on u.id = o.user_id where u.username = 'team_lead'`,
    );
    expect(row!.collect_until.getTime()).toBe(new Date(`${day(4)}T17:30:00`).getTime());
    expect(row!.deliver_at.getTime()).toBe(new Date(`${day(5)}T09:00:00`).getTime());
    expect(await panel.getByLabel('Signing link').inputValue()).toBe(`${app.url}/sign/${row!.signing_token}`);
    await expect.poll(() => panel.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await expect.poll(() => panel.getByRole('button', { name: 'Invite by e-mail' }).isVisible()).toBe(true);
    await expect.poll(() => panel.locator('[data-icon="envelope"] path').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, 'group-card-confirmation');
    // "Invite by e-mail" takes addresses; each gets one invitation.
    await panel.getByRole('button', { name: 'Invite by e-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
    await dialog.getByLabel('E-mail addresses').fill('alex@team.example, sam@team.example\nnot-an-address');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect.poll(() => dialog.getByText('Not an e-mail address: not-an-address').isVisible(), { timeout: 10_000 }).toBe(true);
    await dialog.getByLabel('E-mail addresses').fill('alex@team.example, sam@team.example');
    await screenshotOf(dialog, 'group-card-invite-dialog');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect.poll(() => panel.getByText('Invited by e-mail (0 of 2 signed)').isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await app.sql<{ email: string }>(`select email from group_card_invitation order by email`)).map((row) => row.email)).toEqual(['alex@team.example', 'sam@team.example']);
    await context.close();
  });

  it('a signer signs from a phone, changes and removes their signature from the same browser, and no one else can', { timeout: 180_000 }, async () => {
    const { app } = suite;
    const shop = await shopOf(app);
    const card = await placeGroupCard(app, shop, { deliveryDate: day(5), collectUntil: new Date(`${day(4)}T18:00:00`).toISOString(), recipientName: 'Grace Hopper' });
    await sign(app, card.token, { name: 'Linus', message: 'Happy retirement!' });

    const context = await browse(suite, { viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`/sign/${card.token}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign the card for Grace Hopper' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('.signed-count').textContent()).toBe('1');
    // Nothing on the page is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'group-card-sign-phone');

    await page.getByLabel('Your name').fill('Margaret');
    await page.getByLabel('Your message').fill('It was an honour.\nEnjoy the garden!');
    await page.getByRole('button', { name: 'Sign the card' }).dblclick();
    await expect.poll(() => page.getByText('Thank you: your message is on the card.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator('.signed-count').textContent()).toBe('2');
    const stored = async () => app.sql<{ name: string; message: string }>('select s.name, s.message from group_card_signature s join group_card g on g.id = s.group_card_id where g.signing_token = $1 order by s.id', [card.token]);
    expect(await stored()).toEqual([{ name: 'Linus', message: 'Happy retirement!' }, { name: 'Margaret', message: 'It was an honour.\nEnjoy the garden!' }]);
    // The edit token is in the browser's storage, never in the address.
    expect(page.url()).toBe(`${app.url}/sign/${card.token}`);
    const kept = await page.evaluate((key) => localStorage.getItem(key), `artsong:signature:${card.token}`);
    expect(JSON.parse(kept!)).toMatchObject({ name: 'Margaret', editToken: expect.any(String) });
    await screenshot(page, 'group-card-signed-phone');

    // Back later in the same browser: the signature is theirs to change.
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Change my signature' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Change my signature' }).click();
    await page.getByLabel('Your message').fill('It was an honour. Enjoy the garden!');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await stored())[1]?.message, { timeout: 10_000 }).toBe('It was an honour. Enjoy the garden!');
    await expect.poll(() => page.locator('.mine-message').textContent()).toBe('It was an honour. Enjoy the garden!');

    // Another browser sees the names, and no way to change them.
    const other = await browse(suite, { viewport: PHONE, isMobile: true, hasTouch: true });
    const otherPage = await other.newPage();
    await otherPage.goto(`/sign/${card.token}`);
    await expect.poll(() => otherPage.locator('.names li').allTextContents(), { timeout: 10_000 }).toEqual(['Linus', 'Margaret']);
    expect(await otherPage.getByRole('button', { name: 'Change my signature' }).count()).toBe(0);
    await other.close();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove my signature' }).click();
    await expect.poll(async () => (await stored()).map((s) => s.name), { timeout: 10_000 }).toEqual(['Linus']);
    await expect.poll(() => page.getByRole('button', { name: 'Sign the card' }).isVisible()).toBe(true);
    await context.close();
  });

  it('the purchaser sees the signatures in My orders and removes one', { timeout: 180_000 }, async () => {
    const { app } = suite;
    const shop = await shopOf(app);
    const buyer = await app.customer('organiser');
    const card = await placeGroupCard(app, shop, { deliveryDate: day(5), collectUntil: new Date(`${day(4)}T18:00:00`).toISOString(), recipientName: 'Grace Hopper', buyer });
    await signatures(app, card.token, hundred.slice(0, 3));
    const context = await browse(suite);
    const page = await context.newPage();
    await signIn(page, 'organiser', 'customer-pass-1');
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    await page.goto('/account');
    const panel = page.getByRole('region', { name: 'Group card for Grace Hopper' });
    await expect.poll(() => panel.locator('.group-card-signatures li').count(), { timeout: 10_000 }).toBe(3);
    // The icons are drawn (each is fetched the first time it shows).
    await expect.poll(() => panel.locator('[data-icon="trash"] path').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => panel.locator('[data-icon="duplicate"] path').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, 'group-card-my-orders');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'group-card-my-orders-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await panel.getByRole('button', { name: `Remove ${hundred[1]!.name}'s signature` }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => panel.locator('.group-card-signatures li').count(), { timeout: 10_000 }).toBe(2);
    expect(await panel.locator('.group-card-signatures').textContent()).not.toContain(hundred[1]!.name);

    // "Change date" to Now says first that it closes signing, and how many have signed.
    await page.getByRole('button', { name: 'Change date' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change date' });
    await dialog.getByText('Now', { exact: true }).click();
    await expect.poll(() => dialog.getByRole('radio', { name: 'Now' }).isChecked(), { timeout: 10_000 }).toBe(true);
    // What the dialog says, read without waiting for it: a failure shows what it said instead.
    await expect.poll(() => dialog.getByRole('alert').allTextContents(), { timeout: 10_000 }).toEqual(['Signing closes now; 2 people have signed. No one can sign after it goes.']);
    await screenshotOf(dialog, 'group-card-change-date-now');
    await dialog.getByText('On a day', { exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });
});
