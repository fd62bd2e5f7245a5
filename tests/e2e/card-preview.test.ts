import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForMail } from '../helpers/account-mail.js';
import { PHONE, register, signedIn } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { restCategory, uploadMedia } from '../helpers/catalogue-fixtures.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * The product page at a glance and the preview before paying (contract section 15): one gallery (the
 * card, its other pictures as thumbnails), the form beside the card and in view at 1280×800, and
 * "Preview" from the product page and from a cart line, opening the recipient's page with its
 * message, songs and ribbon; "Send a test to myself" mails it to a signed-in shopper.
 */
const suite = browserSuite();

/** Fills the form for one recipient. */
async function fillCard(page: Page, recipient = 'Grace Hopper') {
  await page.getByLabel("Recipient's name").fill(recipient);
  await page.getByLabel("Recipient's e-mail").fill('grace@example.com');
  await page.getByLabel('Your name').fill('Ada');
  await page.getByLabel('Your message').fill('Happy birthday, {firstName}!');
}

const frameOf = (page: Page) => page.frameLocator('iframe.recipient-preview-frame');

describe('the product page and its preview in a real browser', () => {
  it('shows the card once, its other pictures as thumbnails, and the form beside it in view', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const media = await uploadMedia(app, token, { images: 3, songs: 1, folder: 'Gallery art' });
    const [cover, extra1, extra2] = media.images as [(typeof media.images)[0], (typeof media.images)[0], (typeof media.images)[0]];
    const categoryId = await restCategory(app, token, 'Thank you');
    const res = await app.request('/api/products', {
      method: 'POST',
      token,
      json: {
        product: { category_id: categoryId, name: 'Garden Thanks', description: 'A garden in bloom, with a song.', price: 3.99, product_type_id: 1, main_image_id: cover.id },
        tags: [],
        associated_image_ids: [extra1.id, extra2.id],
        e_greeting_card_data: { message_location: 'middle-center', font_name: null, cover_image_id: cover.id, greeting_image_id: extra1.id, song_1_id: media.songs[0]!.id },
      },
    });
    const created = await res.json();
    expect(res.status, JSON.stringify(created)).toBe(201);
    const id = created.product.id as number;

    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto(`/product/${id}`);
    const name = page.getByLabel("Recipient's name");
    await name.waitFor({ timeout: 30_000 });
    // The card once: no second large picture of it, its other pictures as thumbnails.
    expect(await page.locator('.card-book').count()).toBe(1);
    expect(await page.locator('.product-gallery-main').count()).toBe(0);
    const thumbs = page.getByRole('group', { name: 'Pictures' }).getByRole('button');
    expect(await thumbs.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['The card', 'Picture 1', 'Picture 2']);
    // The form is beside the card and its first field is in view without scrolling.
    const [visual, field] = [await page.locator('.product-visual').boundingBox(), await name.boundingBox()];
    expect(field!.x).toBeGreaterThanOrEqual(visual!.x + visual!.width);
    expect(field!.y + field!.height).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await screenshot(page, 'product-at-a-glance-1280');

    // A thumbnail shows its picture in the card's place; "The card" brings the card back.
    await thumbs.nth(1).click();
    await expect.poll(() => page.locator('.product-gallery-main').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.card-book').count()).toBe(0);
    await thumbs.nth(0).click();
    await expect.poll(() => page.locator('.card-book').count(), { timeout: 15_000 }).toBe(1);

    // On a phone: the card, its name and price, its songs, then the form.
    await page.setViewportSize(PHONE);
    const boxes = await Promise.all(['.product-gallery', '.product-page h1', '.product-songs', '#recipient-name-0'].map(async (selector) => (await page.locator(selector).boundingBox())!));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
    await screenshot(page, 'product-at-a-glance-390');
    await context.close();
  });

  it('previews the card from the product page as its recipient will see it, after the form is right', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const context = await newContext(browser, app.url, { viewport });
      const page = await context.newPage();
      await page.goto(`/product/${shop.cardId}`);
      await page.getByLabel("Recipient's name").waitFor({ timeout: 30_000 });

      // Nothing to preview yet: the first wrong field says so and takes the focus.
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe('recipient-name-0');
      expect(await page.getByRole('dialog').count()).toBe(0);

      await fillCard(page);
      await page.getByRole('button', { name: 'Preview' }).click();
      const dialog = page.getByRole('dialog', { name: 'Preview: as Grace Hopper will see it' });
      await dialog.waitFor({ timeout: 30_000 });
      const frame = frameOf(page);
      await expect.poll(() => frame.locator('h1').textContent(), { timeout: 30_000 }).toBe('Ada sent you a card, Grace Hopper');
      expect(await frame.locator('.preview-ribbon').textContent()).toBe('Preview');
      expect(await frame.locator('.message p').textContent()).toBe('Happy birthday, Grace!');
      // The songs by title, with the shop's own player.
      await expect.poll(() => frame.locator('.song-title').allTextContents(), { timeout: 15_000 }).toEqual(['song-1', 'song-2']);
      await expect.poll(() => frame.getByRole('button', { name: 'Play song-1' }).isVisible(), { timeout: 15_000 }).toBe(true);
      await frame.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => frame.locator('.stage').getAttribute('data-state'), { timeout: 15_000 }).toBe('open');
      // A signed-out shopper has no test to send.
      expect(await dialog.getByRole('button', { name: 'Send a test to myself' }).count()).toBe(0);
      await screenshot(page, `card-preview-${viewport.width}`);
      await dialog.getByRole('button', { name: 'Done', exact: true }).click();
      await expect.poll(() => page.getByRole('dialog').count(), { timeout: 15_000 }).toBe(0);
      // Nothing was recorded.
      expect((await app.sql<{ n: string }>('select count(*) as n from order_item'))[0]!.n).toBe('0');
      await context.close();
    }
  });

  it('previews a cart line and sends a signed-in shopper a test whose link opens the preview', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    await register(app, 'preview_grace');
    const page = await signedIn(browser, app, 'preview_grace');
    await page.setViewportSize(PHONE);
    await page.goto(`/product/${shop.cardId}`);
    await page.getByLabel("Recipient's name").waitFor({ timeout: 30_000 });
    await fillCard(page, 'Linus Torvalds');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('status').filter({ hasText: 'is in your cart' }).getByRole('link', { name: 'View cart' }).click();

    await page.getByRole('button', { name: 'Preview Balloon Birthday' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview: as Linus Torvalds will see it' });
    await dialog.waitFor({ timeout: 30_000 });
    await expect.poll(() => frameOf(page).locator('.message p').textContent(), { timeout: 30_000 }).toBe('Happy birthday, Linus!');
    await dialog.getByRole('button', { name: 'Send a test to myself' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 }).toBe('Sent to preview_grace@example.com: the e-mail Linus Torvalds will get, with its link.');
    await screenshot(page, 'card-preview-cart-390');

    const mail = await waitForMail(app, 'preview_grace@example.com', 'Test: Ada sent you a card: Balloon Birthday');
    const link = /https?:\/\/[^\s"<>]+(\/ecards\/preview\?card=[A-Za-z0-9_.-]+)/.exec(mail)![1]!;
    await page.goto(link);
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 30_000 }).toBe('Ada sent you a card, Linus Torvalds');
    expect(await page.locator('.preview-ribbon').isVisible()).toBe(true);
    await screenshot(page, 'card-preview-test-link-390');
  });
});
