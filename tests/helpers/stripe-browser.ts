import type { BrowserContext } from 'playwright-core';
import type { StripeFake } from './stripe-fake.js';
import type { TestApp } from './test-app.js';

/** The card number the stand-in declines (Stripe's test card for a decline). */
export const STRIPE_DECLINED_CARD = '4000000000000002';

/**
 * Stripe.js, as far as the shop's card element uses it (elements, create('card'), mount,
 * confirmCardPayment): the machine has no internet, so this stand-in is served for
 * https://js.stripe.com, and its calls to https://api.stripe.com are answered by the test (below).
 */
const STRIPE_JS = `
window.Stripe = function (key) {
  let card = null;
  const element = {
    mount(node) {
      const host = typeof node === 'string' ? document.querySelector(node) : node;
      host.innerHTML = '<input aria-label="Card number (Stripe)" data-stripe-card style="width:100%;background:transparent;border:0;color:inherit;font:inherit">';
    },
    on() {}, off() {}, update() {}, unmount() {}, destroy() {},
    value() { return document.querySelector('[data-stripe-card]').value; },
  };
  return {
    version: 'endive',
    _registerWrapper() {}, registerAppInfo() {},
    async createToken() { return {}; }, async createPaymentMethod() { return {}; },
    elements() {
      return { create() { card = element; return element; }, getElement() { return card; }, update() {} };
    },
    async confirmCardPayment(secret, data) {
      const res = await fetch('https://api.stripe.com/v1/payment_intents/' + secret.split('_secret_')[0] + '/confirm', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, card: data.payment_method.card.value(), email: data.payment_method.billing_details.email }),
      });
      return res.json();
    },
  };
};`;

export interface StripeConfirmation {
  key: string;
  card: string;
  email: string | undefined;
}

/**
 * Serves the Stripe.js stand-in to the context's pages and plays Stripe when one confirms a payment:
 * it confirms the intent in the local fake (declined for STRIPE_DECLINED_CARD) and sends the shop the
 * signed events Stripe would: for an order's intent `payment_intent.succeeded` (or `.payment_failed`),
 * for a membership's first invoice `invoice.paid` and `customer.subscription.updated` (or
 * `invoice.payment_failed`), with the intent's own event besides, which the shop ignores.
 */
export async function standInStripe(context: BrowserContext, app: TestApp, fake: StripeFake): Promise<{ confirmations: StripeConfirmation[] }> {
  const confirmations: StripeConfirmation[] = [];
  const send = async (event: { payload: string; signature: string }) => {
    const res = await fetch(`${app.url}/api/payments/stripe/webhook`, { method: 'POST', body: event.payload, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature } });
    if (res.status !== 200) throw new Error(`the shop refused a Stripe event: ${res.status} ${await res.text()}`);
  };
  await context.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS }));
  await context.route('https://api.stripe.com/**', async (route) => {
    const intentId = /payment_intents\/(\w+)\/confirm/.exec(route.request().url())![1]!;
    const sent = route.request().postDataJSON() as StripeConfirmation;
    confirmations.push(sent);
    const headers = { 'access-control-allow-origin': '*' };
    const invoice = fake.billing.invoiceOf(intentId);
    if (sent.card.replace(/\s/g, '') === STRIPE_DECLINED_CARD) {
      const declined = fake.confirm(intentId, 'declined');
      await send(invoice ? fake.invoiceEvent('invoice.payment_failed', invoice) : fake.event('payment_intent.payment_failed', declined));
      return route.fulfill({ json: { error: { type: 'card_error', message: 'Your card was declined.' } }, headers });
    }
    const paid = fake.confirm(intentId, 'succeeded');
    await send(fake.event('payment_intent.succeeded', paid));
    if (invoice) {
      await send(fake.invoiceEvent('invoice.paid', invoice));
      await send(fake.subscriptionEvent('customer.subscription.updated', fake.billing.subscriptionOf(invoice)));
    }
    return route.fulfill({ json: { paymentIntent: { id: intentId, status: 'succeeded' } }, headers });
  });
  return { confirmations };
}
