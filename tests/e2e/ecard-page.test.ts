import { describe, expect, it } from 'vitest';
import { animationsSettled, browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite();

describe('the e-card page in a real browser', () => {
  it('opens like a card onto the message, turns over to the back, and plays on a phone too', async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ message: 'Happy birthday, Grace!\nWith love from all of us.' }) }] }));
    const item = body.data.placeOrder.items[0];

    for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 812 }]] as const) {
      const context = await newContext(browser, app.url);
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const response = await page.goto(`${item.ecardPath}?preview=1`);
      expect(response!.status()).toBe(200);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Ada sent you a card, Grace Hopper');
      await expect.poll(() => page.locator('.stage').getAttribute('data-state')).toBe('closed');
      await screenshot(page, `ecard-${name}-closed`);

      await page.getByRole('button', { name: 'Open the card' }).click();
      await expect.poll(() => page.locator('.stage').getAttribute('data-state')).toBe('open');
      const message = page.locator('.message p');
      await expect.poll(() => message.innerText()).toBe('Happy birthday, Grace!\nWith love from all of us.');
      expect(await message.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"Dancing Script"/);
      await animationsSettled(page); // the cover's opening animation
      // The message sits in the top-left corner of the greeting page.
      const [pageBox, messageBox] = [await page.locator('.inside').boundingBox(), await message.boundingBox()];
      expect(messageBox!.x - pageBox!.x).toBeLessThan(pageBox!.width * 0.15);
      expect(messageBox!.y - pageBox!.y).toBeLessThan(pageBox!.height * 0.15);
      expect(await message.isVisible()).toBe(true);
      await screenshot(page, `ecard-${name}-open`);

      await page.getByRole('button', { name: 'Turn over' }).click();
      await expect.poll(() => page.locator('.back').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      await screenshot(page, `ecard-${name}-back`);
      expect(await page.locator('audio').count()).toBe(2);
      await context.close();
    }
    // Previews do not count as the recipient's first view.
    expect((await app.sql('select opened_at from order_item where id = $1', [item.id]))[0]!.opened_at).toBeNull();
  });
});
