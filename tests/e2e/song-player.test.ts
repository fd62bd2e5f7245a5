import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { wav } from '../helpers/media-fixtures.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Songs by their title, in the shop's own player (contract section 15), on the product page and on
 * the recipient's e-card page: their length before they play, one at a time, and all of it by
 * keyboard. The shop's demo songs last a blink; the browser gets a longer one for the first song
 * (65 seconds), so that a length and a position can be read.
 */
const suite = browserSuite();
const LONG = wav(65);

/** Serves the long song at `path` (ranges too, as the shop's file routes do: a player seeks by them). */
async function longSong(context: BrowserContext, path: string): Promise<void> {
  await context.route(`**/api/${path}`, (route) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(route.request().headers()['range'] ?? '');
    if (!range) return route.fulfill({ status: 200, contentType: 'audio/wav', headers: { 'accept-ranges': 'bytes' }, body: LONG });
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), LONG.length - 1) : LONG.length - 1;
    return route.fulfill({ status: 206, contentType: 'audio/wav', headers: { 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${LONG.length}` }, body: LONG.subarray(start, end + 1) });
  });
}
const productSong = async (app: TestApp) => (await app.sql<{ file_path: string }>(`select file_path from media_file where friendly_name = 'song-1.wav' order by id limit 1`))[0]!.file_path;
const soldSong = async (app: TestApp, itemId: number) => (await app.sql<{ path: string }>(`select card->'songs'->0->>'path' as path from order_item where id = $1`, [itemId]))[0]!.path;

/** Checks a page's two players: titles, length before playing, keyboard play and pause, one at a time, the slider. */
async function playByKeyboard(page: Page): Promise<void> {
  const first = page.getByRole('button', { name: 'Play song-1' });
  const second = page.getByRole('button', { name: 'Play song-2' });
  await expect.poll(() => first.isVisible(), { timeout: 30_000 }).toBe(true);
  expect(await second.isVisible()).toBe(true);
  // Titles, not file names.
  expect(await page.getByText('song-1.wav').count()).toBe(0);
  // The length shows before anything plays.
  const slider = page.getByRole('slider', { name: 'Position in song-1' });
  await expect.poll(() => slider.getAttribute('aria-valuetext'), { timeout: 30_000 }).toBe('0:00 of 1:05');
  await expect.poll(() => page.getByText('0:00 / 1:05').isVisible(), { timeout: 30_000 }).toBe(true);

  // Keyboard only: focus the first play button, Space plays it; the second one's Enter pauses the first.
  await first.focus();
  await page.keyboard.press('Space');
  await expect.poll(() => page.getByRole('button', { name: 'Pause song-1' }).isVisible(), { timeout: 30_000 }).toBe(true);
  await page.getByRole('button', { name: 'Play song-2' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByRole('button', { name: 'Play song-1' }).isVisible(), { timeout: 30_000 }).toBe(true);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByRole('button', { name: 'Play song-2' }).isVisible(), { timeout: 30_000 }).toBe(true);
  // The slider moves with the keys: End goes to the last second, Home back to the start.
  await slider.focus();
  await page.keyboard.press('End');
  await expect.poll(() => slider.getAttribute('aria-valuetext'), { timeout: 30_000 }).toBe('1:05 of 1:05');
  await page.keyboard.press('Home');
  await expect.poll(() => slider.getAttribute('aria-valuetext'), { timeout: 30_000 }).toBe('0:00 of 1:05');
}

describe('the song player in a real browser', () => {
  it('on the product page: titles, length before playing, one at a time, by keyboard', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const context = await newContext(browser, app.url, { viewport });
      await longSong(context, await productSong(app));
      const page = await context.newPage();
      await page.goto(`/product/${shop.cardId}`);
      await playByKeyboard(page);
      await page.getByRole('region', { name: 'Songs' }).scrollIntoViewIfNeeded();
      await screenshot(page, `song-player-product-${viewport.width}`);
      await context.close();
    }
  });

  it("on the recipient's e-card page: the same player, the browser's own controls only without the script", { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }] }));
    const item = body.data.placeOrder.items[0];
    const context = await newContext(browser, app.url, { viewport: { width: 390, height: 844 } });
    await longSong(context, await soldSong(app, item.id));
    const page = await context.newPage();
    await page.goto(`${item.ecardPath}?preview=1`);
    expect(await page.locator('audio[controls]').count()).toBe(0);
    await playByKeyboard(page);
    await screenshot(page, 'song-player-ecard-phone');
    await context.close();

    const bare = await newContext(browser, app.url, { javaScriptEnabled: false });
    const still = await bare.newPage();
    await still.goto(`${item.ecardPath}?preview=1`);
    expect(await still.locator('audio[controls]').count()).toBe(2);
    expect(await still.getByRole('button', { name: 'Play song-1' }).count()).toBe(0);
    await bare.close();
  });
});
