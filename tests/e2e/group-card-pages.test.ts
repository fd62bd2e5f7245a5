import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, browserSuite } from '../helpers/browser.js';
import { browse, day, deliver, hundred, PHONE, signatures } from '../helpers/group-card-browser.js';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite({ deliveryPollSeconds: 3600, limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, signaturesPerHour: 10_000 } });
const SHOTS = path.resolve(import.meta.dirname, '../.artifacts/screenshots');

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

describe('a delivered group card in a real browser', () => {
  it('the delivered card shows every signature in the card\'s font, paged on a phone: 3 and 100 signatures, wide and tall cards', { timeout: 300_000 }, async () => {
    const { app } = suite;
    const shop = await seedShop(app, await app.login());
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
        const context = await browse(suite, { ...options, reducedMotion: motion });
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
