import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iconsDrawn } from '../helpers/account-browser.js';
import { seriousProblems } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhooks in a real browser (contract section 19): the owner adds an endpoint for an event (a bad URL
 * answered on its field first), copies its secret from the one time it is shown, sees the endpoint
 * listed, opens its deliveries once an event went out, redelivers it (the same event id arrives
 * again), and deletes the endpoint.
 */
const suite = browserSuite({ webhookAllowPrivate: true });
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.stop();
});

describe('webhooks in a real browser', () => {
  it('the owner adds an endpoint, reads its secret once, sees and redelivers its deliveries, and deletes it', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const owner = await (await newContext(browser, app.url)).newPage();
    await signIn(owner);
    await owner.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await owner.goto('/admindash?view=api-keys');
    await owner.getByRole('menuitem', { name: 'Webhooks' }).click({ timeout: 30_000 });
    await expect.poll(() => new URL(owner.url()).search, { timeout: 30_000 }).toBe('?view=webhooks');
    await owner.getByText('No webhook endpoints yet').waitFor({ timeout: 30_000 });

    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    const add = owner.getByRole('dialog', { name: 'Add endpoint' });
    await add.getByLabel('URL').fill('ftp://hooks.example.com');
    await add.getByText('Customer signed up').click();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByText('The URL must start with https:// or http://.').waitFor({ timeout: 30_000 });
    await add.getByLabel('URL').fill(`${receiver.url}/console`);
    await iconsDrawn(owner);
    await screenshotOf(add, 'webhooks-add-1280');
    expect(await seriousProblems(owner)).toEqual([]);
    await add.getByRole('button', { name: 'Add endpoint' }).click();

    const added = owner.getByRole('dialog', { name: 'Endpoint added' });
    const secret = (await added.locator('output[aria-label="Signing secret"]').textContent({ timeout: 30_000 }))!;
    expect(secret).toMatch(/^whsec_/);
    await added.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('create'), { timeout: 30_000 }).toBe(null);
    const row = owner.locator('.webhooks-table tbody tr').first();
    await row.getByText(`${receiver.url}/console`).waitFor({ timeout: 30_000 });
    expect(await row.getByText('customer.created').count()).toBe(1);
    expect(await owner.getByText(secret).count()).toBe(0);

    await app.customer('consoleshopper');
    await expect.poll(() => receiver.to('/console').length, { timeout: 30_000 }).toBe(1);
    await row.getByRole('button', { name: `Deliveries to ${receiver.url}/console` }).click();
    await expect.poll(() => new URL(owner.url()).searchParams.get('endpoint'), { timeout: 30_000 }).not.toBe(null);
    const deliveries = owner.getByRole('dialog', { name: 'Deliveries' });
    await deliveries.getByText('Succeeded').waitFor({ timeout: 30_000 });
    await iconsDrawn(owner);
    await screenshotOf(deliveries, 'webhooks-deliveries-1280');
    expect(await seriousProblems(owner)).toEqual([]);
    await deliveries.getByRole('button', { name: /^Redeliver customer.created/ }).click();
    await expect.poll(() => receiver.to('/console').length, { timeout: 30_000 }).toBe(2);
    expect(receiver.to('/console')[1]!.eventId).toBe(receiver.to('/console')[0]!.eventId);
    // Refreshed, the list shows the second attempt.
    await expect
      .poll(async () => {
        await deliveries.getByRole('button', { name: 'Refresh' }).click();
        return deliveries.locator('td[data-label="Attempts"]').first().textContent();
      }, { timeout: 30_000 })
      .toBe('2');
    await deliveries.locator('.bp6-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await screenshot(owner, 'webhooks-list-1280');

    await row.getByRole('button', { name: `Delete ${receiver.url}/console` }).click();
    const alert = owner.getByRole('alertdialog');
    await alert.getByRole('button', { name: 'Delete endpoint' }).click();
    await owner.getByText('No webhook endpoints yet').waitFor({ timeout: 30_000 });
    expect(await app.sql('select id from webhook_endpoint')).toEqual([]);
  });
});
