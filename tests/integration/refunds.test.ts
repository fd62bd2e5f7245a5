import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundRequest, RefundResult } from '../../server/src/modules/payments/payment-provider.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The test provider, with refunds that take a moment (so concurrent calls overlap) or fail on demand. */
class RefundingProvider extends TestPaymentProvider {
  refundRequests: RefundRequest[] = [];
  failNext: string | null = null;
  override async refund(request: RefundRequest): Promise<RefundResult> {
    this.refundRequests.push(request);
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (this.failNext) {
      const message = this.failNext;
      this.failNext = null;
      return { status: 'failed', message };
    }
    return super.refund(request);
  }
}

let app: TestApp;
let admin: string;
let shop: Shop;
const payments = new RefundingProvider();

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [payments] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const later = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

async function order(overrides: Record<string, unknown> = {}): Promise<string> {
  const { body } = await placeOrder(app, orderInput(shop, overrides));
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.placeOrder.id;
}
const refund = (id: string, token: string | undefined = admin) => app.request(`/api/admin/orders/${id}/refund`, { method: 'POST', token });

describe('POST /api/admin/orders/{id}/refund', () => {
  it('refunds through the provider with one key per order and answers the order', async () => {
    const id = await order();
    const before = payments.refundCount;
    const res = await refund(id);
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json).toMatchObject({ id, order_status: 'refunded', total: 28.5, refunded_at: expect.any(String), items: expect.any(Array) });
    expect(payments.refundCount).toBe(before + 1);
    const [row] = await app.sql<{ payment_reference: string }>('select payment_reference from "order" where id = $1', [id]);
    expect(payments.refundRequests.at(-1)).toEqual({ reference: row!.payment_reference, amount: '28.50', idempotencyKey: `refund-${id}` });
    // Again: it cannot be refunded twice.
    const again = await refund(id);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/already refunded/);
    expect(payments.refundCount).toBe(before + 1);
  });

  it('refunds exactly once under concurrent calls and double clicks', async () => {
    const id = await order();
    const before = payments.refundCount;
    const requestsBefore = payments.refundRequests.length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(id)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(payments.refundCount).toBe(before + 1);
    expect(payments.refundRequests.length - requestsBefore).toBe(1);
  });

  it('keeps unsent cards unsent and shows sent cards as withdrawn', async () => {
    const scheduled = await order({ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'later@example.com', deliveryDate: later(), timeZone: 'UTC' }) }] });
    const sentNow = await order({ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'now@example.com' }) }] });
    await app.services.deliveries.runDue();
    const [sentItem] = await app.sql<{ item_url_uuid: string }>('select item_url_uuid from order_item where order_id = $1', [sentNow]);
    expect((await app.request(`/ecards/${sentItem!.item_url_uuid}.html`)).status).toBe(200);

    const reminders = () => app.sql<{ status: string }>(`select status from mail_job where subject = 'order:' || $1 and kind = 'reminder'`, [sentNow]);
    expect(await reminders()).toEqual([{ status: 'queued' }]);
    expect((await refund(scheduled)).status).toBe(200);
    expect((await refund(sentNow)).status).toBe(200);
    // The sent card's reminder is dropped with the refund.
    expect(await reminders()).toEqual([]);
    // The scheduled card's day comes: it is not sent.
    await app.sql(`update mail_job set due_at = now() - interval '1 minute' where subject = 'order:' || $1`, [scheduled]);
    await app.services.deliveries.runDue();
    expect([...outbox(app).values()].some((eml) => eml.includes('To: later@example.com'))).toBe(false);
    const [job] = await app.sql<{ status: string; last_error: string }>(`select status, last_error from mail_job where subject = 'order:' || $1 and kind = 'card'`, [scheduled]);
    expect(job).toEqual({ status: 'withheld', last_error: 'Not sent: the order was refunded.' });
    // The sent card's page says it was withdrawn.
    const page = await app.request(`/ecards/${sentItem!.item_url_uuid}.html`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This card was withdrawn');
    // A resend of a refunded card is refused, and nothing goes out.
    const resend = await app.graphql(`mutation($id: Int!) { resendCardEmail(itemId: $id) { id } }`, { id: (await app.sql<{ id: number }>('select id from order_item where order_id = $1', [sentNow]))[0]!.id }, admin);
    expect(resend.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const mailsTo = () => [...outbox(app).values()].filter((eml) => eml.includes('To: now@example.com')).length;
    const sentBefore = mailsTo();
    await app.services.deliveries.runDue();
    expect(mailsTo()).toBe(sentBefore);
  });

  it('leaves the order as it was when the provider refuses the refund (409)', async () => {
    const id = await order();
    payments.failNext = 'The charge was disputed.';
    const res = await refund(id);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/disputed/);
    const [row] = await app.sql<{ status: string; refunded_at: Date | null }>('select status, refunded_at from "order" where id = $1', [id]);
    expect(row!.status).not.toBe('refunded');
    expect(row!.refunded_at).toBeNull();
  });

  it('answers 404 for an unknown or malformed order, 401/403 for non-admins', async () => {
    const id = await order();
    expect((await refund('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await refund('not-an-order')).status).toBe(404);
    expect((await app.request(`/api/admin/orders/${id}/refund`, { method: 'POST' })).status).toBe(401);
    expect((await refund(id, await app.customer())).status).toBe(403);
    expect((await app.sql<{ status: string }>('select status from "order" where id = $1', [id]))[0]!.status).not.toBe('refunded');
  });

  it('answers 409 for an order that is not paid or delivered', async () => {
    const id = await order();
    await app.sql(`update "order" set status = 'cancelled' where id = $1`, [id]);
    const res = await refund(id);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/cancelled order cannot be refunded/);
  });

  it('is a GraphQL mutation for the console too', async () => {
    const id = await order();
    const { body } = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { id status refundedAt } }`, { id }, admin);
    expect(body.data.refundOrder).toMatchObject({ id, status: 'REFUNDED', refundedAt: expect.any(String) });
    const again = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { id } }`, { id }, admin);
    expect(again.body.errors![0]!.extensions!.code).toBe('CONFLICT');
    const customer = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { id } }`, { id }, await app.customer());
    expect(customer.body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});
