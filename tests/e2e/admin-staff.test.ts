import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';

/**
 * Running the shop, day two (contract section 13), in a real browser: an admin takes on a member of
 * staff, who refunds part of an order; the audit log shows who did what; removing them ends their
 * sessions. The console's customers and e-mail views are in admin-customers-email.test.ts.
 */
const suite = browserSuite({ deliveryPollSeconds: 3600 });
let shop: Shop;

describe('running the shop, day two: staff, partial refunds, the audit log', () => {
  it('an admin invites a member of staff, who accepts and gets Orders, Customers and Sales only', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=staff');
    await expect.poll(() => page.getByRole('table', { name: 'Admins and staff' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByRole('button', { name: 'Invite' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite to the staff' });
    await invite.getByLabel('E-mail').fill('admin@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => invite.getByText('An account already uses this address.').isVisible(), { timeout: 30_000 }).toBe(true);
    await invite.getByLabel('E-mail').fill('sam@example.com');
    await invite.getByLabel('Role').selectOption('STAFF');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => invite.getByText('An invitation is on its way to').isVisible(), { timeout: 30_000 }).toBe(true);
    const link = await invite.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/staff\/accept\?token=[\w-]+$/);
    await screenshotOf(invite, 'admin-staff-invited');
    await invite.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Invitations' }).getByText('sam@example.com').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => invite.count(), { timeout: 30_000 }).toBe(0);
    await screenshot(page, 'admin-staff');

    // Sam opens the link in another browser, chooses a name and a password, and lands in the console.
    const samContext = await newContext(browser, app.url);
    const sam = await samContext.newPage();
    await sam.goto(new URL(link).pathname + new URL(link).search);
    await expect.poll(() => sam.getByRole('heading', { name: 'Join the team' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await sam.getByLabel('Username').fill('sam');
    await sam.getByLabel('Password').fill('sam-password-1');
    await screenshot(sam, 'staff-accept');
    await sam.getByRole('button', { name: 'Create account' }).click();
    await sam.waitForURL(/\/admindash/, { timeout: 30_000 });
    const menu = sam.getByRole('navigation', { name: 'Admin Menu' });
    await expect.poll(() => menu.getByRole('menuitem').allTextContents(), { timeout: 30_000 }).toEqual(['Orders', 'Customers', 'Sales']);
    await expect.poll(() => sam.getByRole('heading', { name: 'Orders', exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(sam, 'staff-console');
    // A view staff may not use falls back to Orders; the server refuses the rest anyway.
    await sam.goto('/admindash?view=media');
    await expect.poll(() => sam.getByRole('heading', { name: 'Orders', exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    await sam.setViewportSize({ width: 390, height: 844 });
    await sam.reload();
    await expect.poll(() => sam.getByRole('heading', { name: 'Orders', exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    // The menu's icons are drawn once their paths have loaded.
    await sam.waitForFunction(() => [...document.querySelectorAll('.admin-menu .bp6-icon')].every((icon) => icon.querySelector('svg path')), undefined, { timeout: 30_000 });
    await screenshot(sam, 'staff-console-phone');

    // Back on the admin's Staff view: Sam is a member now; the admin makes Sam an admin, then staff again.
    await page.reload();
    const samRow = page.getByRole('table', { name: 'Admins and staff' }).getByRole('row', { name: /sam@example\.com/ });
    await expect.poll(() => samRow.isVisible(), { timeout: 30_000 }).toBe(true);
    await samRow.getByLabel('Role of sam').selectOption('ADMIN');
    await expect.poll(() => page.getByText('sam is now an admin').isVisible(), { timeout: 30_000 }).toBe(true);
    expect((await app.sql<{ role: string }>(`select role from app_user where username = 'sam'`))[0]!.role).toBe('admin');
    await samRow.getByLabel('Role of sam').selectOption('STAFF');
    await expect.poll(async () => (await app.sql<{ role: string }>(`select role from app_user where username = 'sam'`))[0]!.role, { timeout: 30_000 }).toBe('staff');

    // The table sorts by any column; an invitation sent by mistake is withdrawn and its link stops working.
    const members = page.getByRole('table', { name: 'Admins and staff' });
    const usernames = () => members.locator('tbody tr td:first-child').evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent ?? ''));
    await expect.poll(usernames, { timeout: 30_000 }).toEqual(['admin', 'sam']);
    await members.getByRole('button', { name: 'Username' }).click();
    await expect.poll(usernames, { timeout: 30_000 }).toEqual(['sam', 'admin']);
    await page.getByRole('button', { name: 'Invite' }).click();
    await invite.getByLabel('E-mail').fill('wrong.person@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => invite.getByText('An invitation is on its way to').isVisible(), { timeout: 30_000 }).toBe(true);
    const wrongLink = new URL(await invite.getByLabel('Invitation link').inputValue());
    await invite.getByRole('button', { name: 'Done' }).click();
    const invitations = page.getByRole('table', { name: 'Invitations' });
    await invitations.getByRole('row', { name: /wrong\.person@example\.com/ }).getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Withdraw' }).click();
    await expect.poll(() => page.getByText('The invitation of wrong.person@example.com was withdrawn').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => invitations.getByText('wrong.person@example.com').count(), { timeout: 30_000 }).toBe(0);
    const refused = await app.request('/api/staff/accept', { method: 'POST', json: { token: wrongLink.searchParams.get('token'), username: 'wrongperson', password: 'wrong-password-1' } });
    expect(refused.status).toBe(400);
    // On a phone (the console opens with its menu folded to icons).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => usernames(), { timeout: 30_000 }).toEqual(['admin', 'sam']);
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-menu .bp6-icon')].every((icon) => icon.querySelector('svg path')), undefined, { timeout: 30_000 });
    await screenshot(page, 'admin-staff-phone');
    await samContext.close();
    await context.close();
  });

  it('staff refund some cards of an order; the order shows them refunded and becomes partially refunded', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'two.cards@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Ann' }) }, { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Ben' }) }] }));
    const orderId: string = body.data.placeOrder.id;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page, 'sam', 'sam-password-1');
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`/admindash?view=orders&order=${orderId}`);
    const details = page.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.getByRole('button', { name: 'Refund' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await details.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund', exact: true });
    // Nothing is chosen at first (contract section 16): the button waits for a choice.
    await expect.poll(() => refund.getByText(/^Choose at least one item\./).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await refund.getByRole('button', { name: 'Refund', exact: true }).isDisabled()).toBe(true);
    await refund.getByText(/to Ann/).click();
    await refund.getByLabel(/^Reason/).fill("Ann's address bounced");
    await expect.poll(() => refund.getByText('$4.50 goes back through the payment provider.').isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshotOf(refund, 'admin-partial-refund');
    await refund.getByRole('button', { name: 'Refund $4.50' }).click();
    await expect.poll(() => page.getByText('Refunded $4.50 to two.cards@example.com').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => details.locator('.bp6-tag', { hasText: /^partially refunded$/ }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await details.locator('.order-refunded-tag').count()).toBe(1);
    await screenshotOf(details, 'admin-order-partially-refunded');
    const rows = await app.sql<{ recipient_name: string; refunded_at: Date | null }>('select recipient_name, refunded_at from order_item where order_id = $1 order by position', [orderId]);
    expect(rows.map((r) => [r.recipient_name, r.refunded_at !== null])).toEqual([['Ann', true], ['Ben', false]]);
    // The reason shows in Order Details; the customer was told (the box is ticked unless unticked).
    await expect.poll(() => details.getByText("Ann's address bounced", { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await app.sql(`select recipient from mail_job where kind = 'refund-notice'`)).toEqual([{ recipient: 'two.cards@example.com' }]);
    await context.close();
  });

  it('the Audit log shows who changed what, filtered by person and kind; removing a member of staff ends their sessions', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=audit');
    const rows = page.locator('.audit-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
    await page.getByLabel('Person').selectOption({ label: 'sam' });
    await expect.poll(() => rows.locator('td.audit-summary').allTextContents(), { timeout: 30_000 }).toEqual([expect.stringMatching(/^Refunded \$4\.50 \(Balloon Birthday to Ann\); the order is now partially refunded\. Reason: Ann's address bounced\. The customer was told\.$/), 'sam accepted the invitation as staff']);
    await page.getByLabel('Person').selectOption({ label: 'Everyone' });
    // As a person would, the next filter is chosen once the address shows this one: each change is made from the filters shown.
    await expect.poll(() => new URL(page.url()).searchParams.get('actor'), { timeout: 30_000 }).toBeNull();
    await page.getByLabel('What changed').selectOption('staff');
    await expect.poll(() => rows.locator('td.audit-summary').allTextContents(), { timeout: 30_000 }).toContain('Invited sam@example.com as staff');
    await page.getByLabel('What changed').selectOption('');
    // The filter, the address and the table all say "everything" (a failure shows which of them did not follow).
    const shown = async () => ({ chosen: await page.getByLabel('What changed').inputValue(), entity: new URL(page.url()).searchParams.get('entity'), many: (await rows.count()) > 5 });
    await expect.poll(shown, { timeout: 30_000 }).toEqual({ chosen: '', entity: null, many: true });
    await screenshot(page, 'admin-audit-log');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-menu .bp6-icon')].every((icon) => icon.querySelector('svg path')), undefined, { timeout: 30_000 });
    await screenshot(page, 'admin-audit-log-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Removing sam ends sam's sessions at once.
    const samToken = await app.login('sam', 'sam-password-1');
    expect((await app.request('/api/admin/customers', { token: samToken })).status).toBe(200);
    await page.goto('/admindash?view=staff');
    await page.getByRole('button', { name: 'Remove sam' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByText('sam was removed').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByRole('table', { name: 'Admins and staff' }).getByText('sam@example.com').count()).toBe(0);
    expect((await app.request('/api/admin/customers', { token: samToken })).status).toBe(401);
    await context.close();
  });
});
