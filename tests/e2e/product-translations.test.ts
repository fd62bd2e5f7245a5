import { describe, expect, it } from 'vitest';
import { browserSuite, openConsole } from '../helpers/browser.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';

/**
 * The product editor's language tabs (contract section 20): English required, German, French and
 * Spanish optional with the English as each field's placeholder; a German name written there is what
 * the shop answers in German, and the English page stays English. (The storefront's /de addresses are
 * served by the gateway's language routes; this checks the German through the shop's GraphQL and REST
 * reads, which those pages ask.)
 */
const suite = browserSuite();

describe('the product editor in four languages', () => {
  it('writes a German name and default message in the Deutsch tab, and the shop answers them in German', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const category = await restCategory(app, token, 'Birthdays');
    const created = await app.request('/api/products', {
      method: 'POST',
      token,
      json: { product: { name: 'Birthday Balloons', description: 'Balloons that float up.', price: 3.5, category_id: category, product_type_id: 1 }, e_greeting_card_data: { default_message: 'Happy birthday!' } },
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).product.id as number;

    const { page } = await openConsole(browser, app.url);
    await page.goto(`/admindash/products/${id}`);
    await page.getByRole('heading', { name: 'Birthday Balloons' }).waitFor();
    const tabs = page.getByRole('tablist');
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['English', 'Deutsch', 'Français', 'Español']);
    await expect.poll(() => page.getByLabel('Default message').inputValue()).toBe('Happy birthday!');

    await tabs.getByRole('tab', { name: 'Deutsch' }).click();
    const germanName = page.locator('#product-name-de');
    await germanName.waitFor();
    // Left empty, a field shows what shoppers read instead: the English.
    expect(await germanName.getAttribute('placeholder')).toBe('Birthday Balloons');
    expect(await page.locator('#product-description-de').getAttribute('placeholder')).toBe('Balloons that float up.');
    await germanName.fill('Geburtstagsballons');
    await page.locator('#product-default-message-de').fill('Alles Gute zum Geburtstag!');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.bp6-toast', { hasText: 'Product saved successfully!' }).waitFor();

    expect(await app.sql(`select locale, name, description, default_message from product_translation where product_id = $1`, [id])).toEqual([
      { locale: 'de', name: 'Geburtstagsballons', description: '', default_message: 'Alles Gute zum Geburtstag!' },
    ]);
    // The other tabs stay empty, the English tab keeps the English.
    await tabs.getByRole('tab', { name: 'Français' }).click();
    expect(await page.locator('#product-name-fr').inputValue()).toBe('');
    await tabs.getByRole('tab', { name: 'English' }).click();
    expect(await page.getByLabel('Name').inputValue()).toBe('Birthday Balloons');

    const read = await app.graphql(`query($id: Int!, $locale: String) { product(id: $id, locale: $locale) { name description eGreetingCard { defaultMessage } } }`, { id, locale: 'de' });
    expect(read.body.data.product).toEqual({ name: 'Geburtstagsballons', description: 'Balloons that float up.', eGreetingCard: { defaultMessage: 'Alles Gute zum Geburtstag!' } });
    expect((await (await app.request(`/api/products/${id}?lang=de`)).json()).product.name).toBe('Geburtstagsballons');

    // The English product page is unchanged, its message starting from the English default message.
    const shopper = await browser.newContext({ baseURL: app.url });
    const shop = await shopper.newPage();
    await shop.goto(`/product/${id}`);
    await shop.getByRole('heading', { name: 'Birthday Balloons' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => shop.locator('#card-message').inputValue(), { timeout: 30_000 }).toBe('Happy birthday!');
  });
});
