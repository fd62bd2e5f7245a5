import crypto from 'node:crypto';
import type { FakeIntent, FakeRequest } from './stripe-fake.js';

export interface FakePrice {
  id: string;
  object: 'price';
  product: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: 'month' | 'year'; interval_count: 1 };
  metadata: Record<string, string>;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'incomplete' | 'incomplete_expired' | 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  start_date: number;
  created: number;
  items: { object: 'list'; data: [{ id: string; object: 'subscription_item'; price: FakePrice; quantity: 1; current_period_start: number; current_period_end: number }] };
  latest_invoice: string;
  default_payment_method: string | null;
  metadata: Record<string, string>;
}

export interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  status: 'open' | 'paid';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  currency: string;
  amount_due: number;
  amount_paid: number;
  attempt_count: number;
  period_start: number;
  period_end: number;
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { subscription: string; metadata: Record<string, string> } };
  lines: { object: 'list'; has_more: false; data: [{ id: string; object: 'line_item'; amount: number; currency: string; period: { start: number; end: number }; parent: { type: 'subscription_item_details'; subscription_item_details: { subscription: string; subscription_item: string } } }] };
  /** Includable: only when asked for (`expand`). */
  confirmation_secret: { client_secret: string; type: 'payment_intent' };
}

type Answer = { status: number; body: unknown };
type Fail = (status: number, type: string, message: string, code?: string) => Answer;

const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A calendar month or year after `start` (the day clamped to the month's last), as Stripe bills. */
function after(start: number, interval: 'month' | 'year'): number {
  const date = new Date(start * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + (interval === 'year' ? 12 : 1));
  date.setUTCDate(Math.min(day, new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()));
  return seconds(date);
}

/**
 * Stripe Billing as far as the shop uses it: customers, products and prices, subscriptions created
 * `default_incomplete` (the first invoice open, with a PaymentIntent whose client secret is the
 * invoice's confirmation secret), updated (`cancel_at_period_end`), cancelled and retrieved (with
 * `expand`). The test plays Stripe's side: the browser's confirmation of the first payment
 * (`paid`), a renewal paid or declined (`renew`), an incomplete subscription expiring (`expire`).
 * Time is `now()`, so a test's clock and Stripe's agree.
 */
export class FakeBilling {
  readonly customers = new Map<string, { id: string; object: 'customer'; email: string | null; metadata: Record<string, string> }>();
  readonly products = new Map<string, { id: string; object: 'product'; name: string; metadata: Record<string, string> }>();
  readonly prices = new Map<string, FakePrice>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly invoices = new Map<string, FakeInvoice>();
  /** The invoice each invoice's PaymentIntent pays. */
  private readonly invoiceOfIntent = new Map<string, string>();
  now: () => Date = () => new Date();

  constructor(private readonly intents: Map<string, FakeIntent>) {}

  /** The invoice a PaymentIntent pays, if it is an invoice's. */
  invoiceOf(intentId: string): FakeInvoice | undefined {
    const invoiceId = this.invoiceOfIntent.get(intentId);
    return invoiceId ? this.invoices.get(invoiceId) : undefined;
  }

  /** The subscription an invoice is for. */
  subscriptionOf(invoice: FakeInvoice): FakeSubscription {
    return this.subscriptions.get(invoice.parent.subscription_details.subscription)!;
  }

  /** What a confirmed payment of an invoice's intent does: the invoice is paid, and its subscription active with the card kept for renewals. */
  paid(intentId: string): void {
    const invoice = this.invoiceOf(intentId);
    if (!invoice || invoice.status === 'paid') return;
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, attempt_count: invoice.attempt_count + 1 });
    const subscription = this.subscriptionOf(invoice);
    if (subscription.status === 'incomplete' || subscription.status === 'past_due') subscription.status = 'active';
    subscription.default_payment_method = 'pm_card_visa';
  }

  /** A renewal: the subscription moves to its next period, whose invoice is paid with the kept card, or declined (past due). */
  renew(subscriptionId: string, outcome: 'paid' | 'failed'): FakeInvoice {
    const subscription = this.subscriptions.get(subscriptionId)!;
    const item = subscription.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end = after(item.current_period_start, item.price.recurring.interval);
    const invoice = this.invoice(subscription, 'subscription_cycle');
    if (outcome === 'paid') Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, attempt_count: 1 });
    else invoice.attempt_count = 1;
    subscription.status = outcome === 'paid' ? 'active' : 'past_due';
    return invoice;
  }

  /** Stripe gives up on a subscription whose first invoice was not paid in 23 hours. */
  expire(subscriptionId: string): FakeSubscription {
    const subscription = this.subscriptions.get(subscriptionId)!;
    Object.assign(subscription, { status: 'incomplete_expired', ended_at: seconds(this.now()) });
    return subscription;
  }

  /** The answer to a billing call, or null when the request is not one. */
  route({ method, path, body }: FakeRequest, fail: Fail): Answer | null {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer' as const, email: (body.email as string) ?? null, metadata: (body.metadata as Record<string, string>) ?? {} };
      this.customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/products') {
      const product = { id: id('prod'), object: 'product' as const, name: String(body.name), metadata: (body.metadata as Record<string, string>) ?? {} };
      this.products.set(product.id, product);
      return { status: 200, body: product };
    }
    if (method === 'POST' && path === '/v1/prices') {
      if (!this.products.has(String(body.product))) return fail(400, 'invalid_request_error', `No such product: '${String(body.product)}'`, 'resource_missing');
      const recurring = body.recurring as { interval: 'month' | 'year' };
      const price: FakePrice = { id: id('price'), object: 'price', product: String(body.product), unit_amount: Number(body.unit_amount), currency: String(body.currency), recurring: { interval: recurring.interval, interval_count: 1 }, metadata: (body.metadata as Record<string, string>) ?? {} };
      this.prices.set(price.id, price);
      return { status: 200, body: price };
    }
    if (method === 'POST' && path === '/v1/subscriptions') return this.create(body, fail);
    const match = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
    if (!match) return null;
    const subscription = this.subscriptions.get(match[1]!);
    if (!subscription) return fail(404, 'invalid_request_error', `No such subscription: '${match[1]}'`, 'resource_missing');
    if (method === 'GET') return { status: 200, body: this.json(subscription, body.expand) };
    if (method === 'DELETE') {
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return fail(400, 'invalid_request_error', 'A canceled subscription can only update its cancellation_details and metadata.');
      Object.assign(subscription, { status: 'canceled', canceled_at: seconds(this.now()), ended_at: seconds(this.now()) });
      return { status: 200, body: this.json(subscription, body.expand) };
    }
    if (method === 'POST') {
      if (subscription.status === 'canceled') return fail(400, 'invalid_request_error', 'A canceled subscription can only update its cancellation_details and metadata.');
      if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
      return { status: 200, body: this.json(subscription, body.expand) };
    }
    return null;
  }

  /** A subscription as Stripe answers it, with what `expand` asks for. */
  json(subscription: FakeSubscription, expand?: unknown): Record<string, unknown> {
    const asked = Object.values((expand as Record<string, string>) ?? {});
    const card = subscription.default_payment_method;
    const { confirmation_secret, ...invoice } = this.invoices.get(subscription.latest_invoice)!;
    return {
      ...subscription,
      default_payment_method: card && asked.includes('default_payment_method') ? { id: card, object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } } : card,
      latest_invoice: asked.includes('latest_invoice.confirmation_secret') ? { ...invoice, confirmation_secret } : subscription.latest_invoice,
    };
  }

  /** An invoice as its events carry it (its confirmation secret is not in them). */
  invoiceJson(invoice: FakeInvoice): Record<string, unknown> {
    const { confirmation_secret: _secret, ...rest } = invoice;
    return rest;
  }

  private create(body: Record<string, unknown>, fail: Fail): Answer {
    const customer = String(body.customer);
    const priceId = ((body.items as Record<string, { price?: string }>)?.['0'] ?? {}).price;
    const price = priceId ? this.prices.get(priceId) : undefined;
    if (!this.customers.has(customer)) return fail(400, 'invalid_request_error', `No such customer: '${customer}'`, 'resource_missing');
    if (!price) return fail(400, 'invalid_request_error', `No such price: '${priceId}'`, 'resource_missing');
    if (body.payment_behavior !== 'default_incomplete') return fail(400, 'invalid_request_error', 'This fake only starts subscriptions default_incomplete, as the shop does.');
    const start = seconds(this.now());
    const subscription: FakeSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: 'incomplete',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      start_date: start,
      created: start,
      items: { object: 'list', data: [{ id: id('si'), object: 'subscription_item', price, quantity: 1, current_period_start: start, current_period_end: after(start, price.recurring.interval) }] },
      latest_invoice: '',
      default_payment_method: null,
      metadata: (body.metadata as Record<string, string>) ?? {},
    };
    this.subscriptions.set(subscription.id, subscription);
    const invoice = this.invoice(subscription, 'subscription_create');
    // The first invoice is paid through an intent of its own, which the browser confirms.
    const intentId = id('pi');
    const intent: FakeIntent = {
      id: intentId,
      object: 'payment_intent',
      amount: invoice.amount_due,
      currency: invoice.currency,
      status: 'requires_payment_method',
      client_secret: `${intentId}_secret_${crypto.randomBytes(8).toString('hex')}`,
      description: null,
      metadata: {},
      payment_method: null,
      last_payment_error: null,
    };
    this.intents.set(intentId, intent);
    this.invoiceOfIntent.set(intentId, invoice.id);
    invoice.confirmation_secret = { client_secret: intent.client_secret, type: 'payment_intent' };
    return { status: 200, body: this.json(subscription, body.expand) };
  }

  /** The invoice of the subscription's current period, made its latest. */
  private invoice(subscription: FakeSubscription, reason: FakeInvoice['billing_reason']): FakeInvoice {
    const item = subscription.items.data[0];
    const period = { start: item.current_period_start, end: item.current_period_end };
    const invoice: FakeInvoice = {
      id: id('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      billing_reason: reason,
      currency: item.price.currency,
      amount_due: item.price.unit_amount,
      amount_paid: 0,
      attempt_count: 0,
      // The invoice's own period ends where the line's starts (for a renewal, it is the previous period): the line says what is paid for.
      period_start: period.start,
      period_end: period.start,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      lines: { object: 'list', has_more: false, data: [{ id: id('il'), object: 'line_item', amount: item.price.unit_amount, currency: item.price.currency, period, parent: { type: 'subscription_item_details', subscription_item_details: { subscription: subscription.id, subscription_item: item.id } } }] },
      confirmation_secret: { client_secret: '', type: 'payment_intent' },
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }
}
