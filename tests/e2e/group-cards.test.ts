import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { placeGroupCard, sign } from '../helpers/group-card-fixtures.js';
import { seedShop, type Shop } from '../helpers/order-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';

const suite = browserSuite({ deliveryPollSeconds: 3600, limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, signaturesPerHour: 10_000 } });
const PHONE = { width: 390, height: 844 };
const SHOTS = path.resolve(import.meta.dirname, '../.artifacts/screenshots');

/** A day `offset` days from today, as the browser (on this machine) reads it. */
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

let shop: Shop | null = null;
const shopOf = async (app: TestApp) => (shop ??= await seedShop(app, await app.login()));

/** A browser profile on the app whose navigations may take long on a busy machine. */
async function browse(options: Parameters<typeof newContext>[2] = {}) {
  const made = await newContext(suite.browser, suite.app.url, options);
  made.setDefaultNavigationTimeout(120_000);
  made.setDefaultTimeout(60_000);
  return made;
}

/** Sends a group card out now (its day moved to now), so that its page is the delivered card. */
async function deliver(app: TestApp, itemId: number) {
  await app.sql(`update mail_job set due_at = now() where ref = 'card:' || $1 and kind = 'card'`, [itemId]);
  await app.services.deliveries.runDue();
  await expect.poll(async () => (await app.sql<{ delivered_at: Date | null }>('select delivered_at from order_item where id = $1', [itemId]))[0]!.delivered_at, { timeout: 30_000 }).not.toBeNull();
}

/** Writes `count` signatures straight into the database (their signing is tested over HTTP elsewhere). */
async function signatures(app: TestApp, token: string, list: { name: string; message: string }[]) {
  await app.sql(
    `insert into group_card_signature (group_card_id, name, message, edit_token_hash, client_key_hash, content_hash)
     select g.id, s.name, s.message, encode(sha256(('e' || s.n)::bytea), 'hex'), encode(sha256(('c' || s.n)::bytea), 'hex'), encode(sha256(('m' || s.n)::bytea), 'hex')
       from group_card g, unnest($2::text[], $3::text[]) with ordinality as s(name, message, n)
      where g.signing_token = $1`,
    [token, list.map((s) => s.name), list.map((s) => s.message)],
  );
}

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia', 'Tim', 'Katherine', 'Edsger', 'Hedy', 'John', 'Sophie', 'Guido', 'Annie', 'Donald', 'Mary'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman'];
const WORDS = 'thank you for everything you have done for the team over the years it has been a real joy to work with you and we will miss your laugh your kindness and your terrible puns good luck'.split(' ');
/** A hundred signatures as a team writes them: mostly a line or two, some a paragraph, two long ones. */
const hundred = Array.from({ length: 100 }, (_, i) => {
  const words = i % 33 === 7 ? 90 : i % 9 === 4 ? 35 : 6 + (i % 7) * 2;
  const message = Array.from({ length: words }, (_, w) => WORDS[(i * 7 + w) % WORDS.length]).join(' ');
  return { name: `${FIRST[i % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`, message: `${message[0]!.toUpperCase()}${message.slice(1)}${i % 5 === 0 ? '!\nSee you soon.' : '.'}`.slice(0, 500) };
});

/** Turns the open card's pages one by one; returns the signatures seen on each page, checking that each page holds its text (or scrolls). */
async function readPages(page: Page): Promise<string[][]> {
  const total = await page.locator('.inside.pages > .page').count();
  const seen: string[][] = [];
  for (let i = 0; i < total; i += 1) {
    await expect.poll(() => page.locator('.page-at').textContent(), { timeout: 10_000 }).toBe(String(i + 1));
    const current = page.locator('.inside.pages > .page').nth(i);
    // The page shown fills the card once it has slid into place.
    const offset = async () => Math.abs((await current.boundingBox())!.x - (await page.locator('.inside.pages').boundingBox())!.x);
    await expect.poll(offset, { timeout: 10_000 }).toBeLessThan(2);
    // Its signatures fit it: nothing below it, no column beyond it (unless one signature alone is longer than a page).
    const fit = await current.evaluate((el) => ({ over: el.scrollHeight - el.clientHeight + el.scrollWidth - el.clientWidth, alone: el.children.length === 1 }));
    if (!fit.alone) expect(fit.over).toBeLessThanOrEqual(2);
    seen.push(await current.locator('.sig-name').allTextContents());
    if (i < total - 1) await page.getByRole('button', { name: 'Next page' }).click();
  }
  return seen;
}

/**
 * A screenshot of the whole page taken with a viewport as tall as the page: Chromium's capture beyond
 * the viewport lays the card's row of pages out anew and leaves it between two pages (a real resize
 * does not).
 */
async function wholePage(page: Page, name: string) {
  const size = page.viewportSize()!;
  // Once the pages have stopped sliding.
  await expect.poll(() => page.locator('.inside.pages').evaluate((el) => el.scrollLeft % el.clientWidth), { timeout: 10_000 }).toBe(0);
  const left = await page.locator('.inside.pages').evaluate((el) => el.scrollLeft);
  await page.setViewportSize({ width: size.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await page.locator('.inside.pages').evaluate((el, at) => el.scrollTo({ left: at }), left);
  await expect.poll(() => page.locator('.inside.pages').evaluate((el) => el.scrollLeft), { timeout: 10_000 }).toBe(left);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  await page.setViewportSize(size);
}

describe('group cards in a real browser', () => {
  it('a shopper makes a group card, pays, and finds its signing link on the confirmation page', { timeout: 180_000 }, async () => {
    const { app } = suite;
    const shop = await shopOf(app);
    await app.customer('team_lead');
    const context = await browse();
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

    const context = await browse({ viewport: PHONE, isMobile: true, hasTouch: true });
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
    const other = await browse({ viewport: PHONE, isMobile: true, hasTouch: true });
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
    const context = await browse();
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
    await context.close();
  });

  it('the delivered card shows every signature in the card\'s font, paged on a phone: 3 and 100 signatures, wide and tall cards', { timeout: 300_000 }, async () => {
    const { app } = suite;
    const shop = await shopOf(app);
    for (const [count, shape] of [[3, 'wide'], [100, 'wide'], [100, 'tall']] as const) {
      const card = await placeGroupCard(app, shop, { deliveryDate: day(5), collectUntil: new Date(`${day(4)}T18:00:00`).toISOString(), recipientName: 'Grace Hopper', message: 'Happy retirement, Grace!\nFrom all of us.' });
      await signatures(app, card.token, hundred.slice(0, count));
      // The shop's test pictures are wide (4:3); most cards stand tall (3:4), as the card's cover says.
      if (shape === 'tall') await app.sql(`update order_item set card = jsonb_set(jsonb_set(card::jsonb, '{cover,width}', '600'), '{cover,height}', '800') where id = $1`, [card.itemId]);
      await deliver(app, card.itemId);
      // The hundred signatures are read as by someone whose system asks for less motion: the pages
      // turn at once (the page honours prefers-reduced-motion); the three-signature card slides.
      const motion = count === 3 ? 'no-preference' : 'reduce';
      for (const [form, options] of [['phone', { viewport: PHONE, isMobile: true, hasTouch: true }], ['desktop', { viewport: { width: 1280, height: 900 } }]] as const) {
        const context = await browse({ ...options, reducedMotion: motion });
        const page = await context.newPage();
        await page.goto(`/ecards/${card.uuid}.html`);
        await page.getByRole('button', { name: 'Open the card' }).click();
        await expect.poll(() => page.locator('.message p').innerText(), { timeout: 10_000 }).toBe('Happy retirement, Grace!\nFrom all of us.');
        await animationsSettled(page); // the cover's opening animation
        // The page's script has fitted the signatures to the pages in the card's font.
        await page.evaluate(() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))));
        expect(await page.locator('.sig-page').first().evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"Dancing Script"/);
        if (form === 'phone') {
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
          const seen = await readPages(page);
          expect(seen.flat().map((name) => name.replace(/^— /, ''))).toEqual(hundred.slice(0, count).map((s) => s.name));
          // Back to the first signatures page for the picture.
          await page.locator('.inside.pages').evaluate((el) => el.scrollTo({ left: el.clientWidth }));
          await expect.poll(() => page.locator('.page-at').textContent(), { timeout: 10_000 }).toBe('2');
        } else {
          await page.getByRole('button', { name: 'Next page' }).click();
          await expect.poll(() => page.locator('.page-at').textContent(), { timeout: 10_000 }).toBe('2');
        }
        await wholePage(page, `group-card-ecard-${count}-${shape}-${form}`);
        await context.close();
      }
    }
  });
});
