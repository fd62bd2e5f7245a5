import { describe, expect, it } from 'vitest';
import { browserSuite, followUserMenu, hydrationErrors, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite({ deliveryPollSeconds: 3600 });
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

describe('send to many in a real browser', () => {
  it('imports an address book, picks three contacts for one card and sees three cards in My orders', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    await app.customer('ada_many');
    const context = await newContext(browser, app.url);
    // A busy shared machine: pages may take long to come.
    context.setDefaultNavigationTimeout(90_000);
    const page = await context.newPage();
    await signIn(page, 'ada_many', 'customer-pass-1');
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });

    // The user menu leads to the address book, empty at first.
    await followUserMenu(page, 'Address book', '/account/contacts');
    await expect.poll(() => page.getByText('Your address book is empty').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'contacts-empty');

    // A file with bad lines: each is listed with its number, and nothing is imported.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV' });
    await dialog.getByLabel('CSV file').setInputFiles(csvFile('bad.csv', 'name,email,birthday\nGrace Hopper,grace@example.com,1906-12-09\nNobody,not-an-address,\nLinus,linus@example.com,02-30\n'));
    await dialog.getByRole('button', { name: 'Import' }).click();
    const errors = dialog.getByRole('table', { name: 'Lines that could not be imported' });
    await expect.poll(() => errors.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2);
    expect(await errors.locator('tbody tr').first().innerText()).toMatch(/^3\s+"not-an-address" is not an e-mail address\.$/);
    expect(await errors.locator('tbody tr').nth(1).innerText()).toMatch(/^4\s+The birthday "02-30" is not a day/);
    await screenshotOf(dialog, 'contacts-import-errors');
    expect(await app.sql(`select count(*)::int as n from contact`)).toEqual([{ n: 0 }]);

    // A 5 MB file is refused in the page before anything is sent.
    await dialog.getByLabel('CSV file').setInputFiles(csvFile('huge.csv', `name,email,birthday\n${'x'.repeat(5 * 1024 * 1024)}`));
    await expect.poll(() => dialog.getByRole('alert').innerText(), { timeout: 10_000 }).toMatch(/This file is 5,121 kB: an address book file can be at most 512 kB/);
    expect(await dialog.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);

    // The corrected file: four contacts, their birthdays with reminders.
    await dialog.getByLabel('CSV file').setInputFiles(csvFile('friends.csv', 'name,email,birthday\nGrace Hopper,grace@example.com,1906-12-09\nLinus,linus@example.com,12-28\nMargaret Hamilton,margaret@example.com,08-17\nAlan Kay,alan@example.com,\n'));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(false);
    const list = page.getByRole('list', { name: 'Contacts' });
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(4);
    expect(await list.getByRole('listitem').first().innerText()).toContain('Alan Kay');
    await expect.poll(() => page.getByText('Birthday · 9 December 1906 · reminder 7 days before').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'contacts-list');

    // The server searches; the list follows as one types.
    await page.getByLabel('Search contacts').fill('hamil');
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel('Search contacts').fill('');
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(4);

    // Editing a contact: its occasion's reminder can be turned off (the list is updated from the answer, not read again).
    await page.getByRole('button', { name: 'Edit Linus' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit contact' });
    await expect.poll(() => edit.getByLabel('Occasion', { exact: true }).inputValue(), { timeout: 10_000 }).toBe('Birthday');
    await screenshotOf(edit, 'contacts-edit-dialog');
    await edit.getByText('Remind me').click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.isVisible(), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => page.getByText('Birthday · 28 December · no reminder').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await app.sql(`select o.remind, o.next_remind_at from contact_occasion o join contact c on c.id = o.contact_id where c.email = 'linus@example.com'`)).toEqual([{ remind: false, next_remind_at: null }]);

    // The same screen on a phone.
    const phone = await newContext(browser, app.url, PHONE);
    phone.setDefaultNavigationTimeout(90_000);
    const phonePage = await phone.newPage();
    await phonePage.goto('/login');
    await phonePage.evaluate(([token, user]) => {
      sessionStorage.setItem('token', token!);
      sessionStorage.setItem('user', user!);
    }, await page.evaluate(() => [sessionStorage.getItem('token'), sessionStorage.getItem('user')]));
    await phonePage.goto('/account/contacts');
    await expect.poll(() => phonePage.getByRole('list', { name: 'Contacts' }).getByRole('listitem').count(), { timeout: 10_000 }).toBe(4);
    await screenshot(phonePage, 'contacts-list-phone');

    // One card to three contacts picked from the address book, with {name} in the message.
    await page.goto(`/product/${shop.cardId}`);
    await expect.poll(() => page.getByRole('button', { name: 'From address book' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'From address book' }).click();
    const search = page.getByLabel('Search your address book');
    await expect.poll(() => search.isVisible(), { timeout: 10_000 }).toBe(true);
    for (const [typed, name] of [['grace', 'Grace Hopper'], ['linus', 'Linus'], ['marg', 'Margaret Hamilton']] as const) {
      await search.fill(typed);
      // The search is sent a moment after the typing stops: until the server's answer is drawn the
      // list shows the previous one (or "Searching…"). Ready when the list is the one contact found.
      const options = page.getByRole('option');
      await expect.poll(async () => (await options.allInnerTexts()).map((text) => text.split('\n')[0]!.trim()), { timeout: 30_000 }).toEqual([name]);
      await options.first().click();
      await expect.poll(() => page.locator('.address-book-picker .bp6-tag').filter({ hasText: name }).count(), { timeout: 30_000 }).toBe(1);
    }
    await page.keyboard.press('Escape');
    expect(await page.getByLabel("Recipient's name").inputValue()).toBe('Grace Hopper');
    expect(await page.getByLabel("Recipient 3's e-mail").inputValue()).toBe('margaret@example.com');
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Your message').fill('Dear {name}, happy holidays!');
    // The preview is the first recipient's card.
    await expect.poll(() => page.getByTestId('preview-message').textContent(), { timeout: 10_000 }).toBe('Dear Grace Hopper, happy holidays!');
    await expect.poll(() => page.getByText('3 recipients: one card each').isVisible()).toBe(true);
    await screenshot(page, 'product-three-recipients');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('3');

    // The cart prices the card per recipient.
    await page.goto('/cart');
    await expect.poll(() => page.getByTestId('cart-total').textContent(), { timeout: 10_000 }).toBe('$13.50');
    expect(await page.locator('.cart-card-details').innerText()).toContain('To 3 recipients (Grace Hopper, Linus and Margaret Hamilton)');
    await screenshot(page, 'cart-three-recipients');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('1230');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $13.50' }).click();
    await page.waitForURL(/\/order-confirmation\//, { timeout: 15_000 });

    // My orders: three cards, one per recipient, each with their own state and their own message.
    await page.goto('/account');
    for (const name of ['Grace Hopper', 'Linus', 'Margaret Hamilton']) {
      await expect.poll(() => page.getByRole('listitem', { name: `Card for ${name}` }).count(), { timeout: 10_000 }).toBe(1);
    }
    await expect.poll(() => page.locator('.account-card').count()).toBe(3);
    const messages = await app.sql<{ message: string }>(`select message from order_item order by position`);
    expect(messages.map((m) => m.message)).toEqual(['Dear Grace Hopper, happy holidays!', 'Dear Linus, happy holidays!', 'Dear Margaret Hamilton, happy holidays!']);
    await screenshot(page, 'account-three-cards');
    await phonePage.goto('/account');
    await expect.poll(() => phonePage.locator('.account-card').count(), { timeout: 10_000 }).toBe(3);
    await screenshot(phonePage, 'account-three-cards-phone');
    await phonePage.goto(`/product/${shop.cardId}`);
    await expect.poll(() => phonePage.getByRole('button', { name: 'From address book' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await phonePage.getByRole('button', { name: 'Add recipient' }).click();
    await phonePage.getByText('On a later day').click();
    await screenshot(phonePage, 'product-recipients-phone');

    // The link of a reminder e-mail turns that reminder off, with a button (no sign-in needed).
    const [grace] = await app.sql<{ id: number }>(`select o.id from contact_occasion o join contact c on c.id = o.contact_id where c.email = 'grace@example.com'`);
    const stranger = await newContext(browser, app.url, PHONE);
    const stop = await stranger.newPage();
    await stop.goto(`/reminders/stop?token=${encodeURIComponent(app.services.occasionReminders.stopToken(grace!.id))}`);
    await expect.poll(() => stop.getByRole('button', { name: 'Turn off this reminder' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await screenshot(stop, 'reminder-stop-phone');
    await stop.getByRole('button', { name: 'Turn off this reminder' }).click();
    await expect.poll(() => stop.getByText("You will get no more reminders of Grace Hopper's Birthday.").isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(stop, 'reminder-stopped-phone');
    expect(await app.sql('select remind from contact_occasion where id = $1', [grace!.id])).toEqual([{ remind: false }]);
    await stranger.close();

    expect(hydrationErrors(context)).toEqual([]);
    await phone.close();
    await context.close();
  });
});
