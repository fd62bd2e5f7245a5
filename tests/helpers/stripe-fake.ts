import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { FakeBilling, type FakeInvoice, type FakeSubscription } from './stripe-fake-billing.js';

/** A request the fake received, with its form body read into nested objects. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  last_payment_error: { message: string } | null;
}

/** Reads Stripe's form encoding (`metadata[order_id]=…`, `list[0]=…`) into nested objects. */
function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/[[\]]+/).filter(Boolean);
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** Endpoints a test can make fail: creating a PaymentIntent, cancelling one, and any change of a subscription (create, update, cancel). */
type FailingEndpoint = 'create' | 'cancel' | 'subscriptions';

const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;

/**
 * A local stand-in for the few Stripe endpoints the shop calls (PaymentIntents and their
 * cancelling, refunds, payment methods, and Billing's customers, products, prices and subscriptions:
 * see FakeBilling), with Stripe's idempotency: a repeated Idempotency-Key answers the first response.
 */
export class StripeFake {
  readonly requests: FakeRequest[] = [];
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds: { id: string; payment_intent: string; amount: number }[] = [];
  /** Stripe Billing: memberships' customers, prices and subscriptions. */
  readonly billing = new FakeBilling(this.intents);
  /** The next PaymentIntent creation is refused with this card error. */
  declineNextCreate: string | null = null;
  /** The next calls of an endpoint (`POST /v1/payment_intents`, `cancel`) fail: with this error answer, or with the connection dropped. */
  private readonly failures: { endpoint: FailingEndpoint; times: number; answer: { status: number; type: string; message: string } | 'drop' }[] = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private server: http.Server | null = null;
  port = 0;

  constructor(readonly secretKey = 'sk_test_fake_key', readonly webhookSecret = 'whsec_test_fake_secret') {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        // A GET's or DELETE's parameters (`expand[0]=…`) come in the query, a POST's in the body.
        const [pathname, query = ''] = (req.url ?? '/').split('?') as [string, string?];
        const request: FakeRequest = { method: req.method ?? 'GET', path: pathname, headers: req.headers, body: parseForm(req.method === 'POST' ? text : query) };
        this.requests.push(request);
        const failure = this.failureFor(request);
        if (failure === 'drop') {
          req.socket.destroy();
          return;
        }
        const answer = failure ? error(failure.status, failure.type, failure.message) : this.answer(request);
        res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Makes the next `times` calls of an endpoint fail (Stripe's client retries a 5xx or a dropped connection twice). */
  fail(endpoint: FailingEndpoint, times: number, answer: { status: number; type: string; message: string } | 'drop'): void {
    this.failures.push({ endpoint, times, answer });
  }

  /**
   * What the browser's card element does: the intent succeeds (with a Visa ending 4242) or is
   * declined. An invoice's intent (a membership's first payment) pays its invoice and makes its
   * subscription active.
   */
  confirm(intentId: string, outcome: 'succeeded' | 'declined'): FakeIntent {
    const intent = this.intents.get(intentId)!;
    if (outcome === 'succeeded') {
      Object.assign(intent, { status: 'succeeded', payment_method: 'pm_card_visa', last_payment_error: null });
      this.billing.paid(intentId);
    } else intent.last_payment_error = { message: 'Your card was declined.' };
    return { ...intent };
  }

  /** An invoice's event as Stripe sends it (`invoice.paid`, `invoice.payment_failed`), signed. */
  invoiceEvent(type: 'invoice.paid' | 'invoice.payment_failed', invoice: FakeInvoice): { payload: string; signature: string } {
    return this.event(type, this.billing.invoiceJson(invoice));
  }

  /** A subscription's event as Stripe sends it (`customer.subscription.updated`, `.deleted`), signed. */
  subscriptionEvent(type: 'customer.subscription.updated' | 'customer.subscription.deleted', subscription: FakeSubscription): { payload: string; signature: string } {
    return this.event(type, this.billing.json(subscription));
  }

  /** A webhook event as Stripe sends it: the JSON body and its Stripe-Signature header (signed with `secret`). */
  event(type: string, object: object, secret = this.webhookSecret): { payload: string; signature: string } {
    const payload = JSON.stringify({ id: id('evt'), object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), type, data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    return { payload, signature };
  }

  private failureFor({ method, path }: FakeRequest): { status: number; type: string; message: string } | 'drop' | null {
    const endpoint = method === 'POST' && path === '/v1/payment_intents' ? 'create' : method === 'POST' && /\/cancel$/.test(path) ? 'cancel' : method !== 'GET' && path.startsWith('/v1/subscriptions') ? 'subscriptions' : null;
    const failure = this.failures.find((f) => f.endpoint === endpoint && f.times > 0);
    if (!failure) return null;
    failure.times -= 1;
    return failure.answer;
  }

  private answer(request: FakeRequest): { status: number; body: unknown } {
    if (request.headers.authorization !== `Bearer ${this.secretKey}`) return error(401, 'invalid_request_error', 'Invalid API Key provided.');
    const key = request.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' && request.method === 'POST' ? `${request.path} ${key}` : null;
    if (cacheKey && this.idempotent.has(cacheKey)) return this.idempotent.get(cacheKey)!;
    const answer = this.route(request);
    if (cacheKey) this.idempotent.set(cacheKey, answer);
    return answer;
  }

  private route({ method, path, body }: FakeRequest): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/payment_intents') {
      if (this.declineNextCreate) {
        const message = this.declineNextCreate;
        this.declineNextCreate = null;
        return error(402, 'card_error', message, 'card_declined');
      }
      const intentId = id('pi');
      const intent: FakeIntent = {
        id: intentId,
        object: 'payment_intent',
        amount: Number(body.amount),
        currency: String(body.currency),
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${crypto.randomBytes(8).toString('hex')}`,
        description: (body.description as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        payment_method: null,
        last_payment_error: null,
      };
      this.intents.set(intentId, intent);
      return { status: 200, body: intent };
    }
    const intentMatch = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
    if (method === 'GET' && intentMatch) {
      const intent = this.intents.get(intentMatch[1]!);
      return intent ? { status: 200, body: intent } : error(404, 'invalid_request_error', 'No such payment_intent');
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = this.intents.get(String(body.payment_intent));
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${String(body.payment_intent)}'`);
      if (intent.status !== 'succeeded') return error(400, 'invalid_request_error', 'This PaymentIntent does not have a successful charge to refund.');
      const amount = body.amount === undefined ? intent.amount : Number(body.amount);
      const refunded = this.refunds.filter((r) => r.payment_intent === intent.id).reduce((t, r) => t + r.amount, 0);
      if (refunded + amount > intent.amount) return error(400, 'invalid_request_error', 'Charge has already been refunded.', 'charge_already_refunded');
      const refund = { id: id('re'), object: 'refund', payment_intent: intent.id, amount, currency: intent.currency, status: 'succeeded' };
      this.refunds.push(refund);
      return { status: 200, body: refund };
    }
    const cancelMatch = /^\/v1\/payment_intents\/([\w]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancelMatch) {
      const intent = this.intents.get(cancelMatch[1]!);
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${cancelMatch[1]}'`, 'resource_missing');
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        return error(400, 'invalid_request_error', `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, 'payment_intent_unexpected_state');
      }
      intent.status = 'canceled';
      return { status: 200, body: { ...intent, cancellation_reason: body.cancellation_reason ?? null } };
    }
    const methodMatch = /^\/v1\/payment_methods\/([\w]+)$/.exec(path);
    if (method === 'GET' && methodMatch) return { status: 200, body: { id: methodMatch[1], object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } } };
    const billing = this.billing.route({ method, path, body, headers: {} }, error);
    if (billing) return billing;
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }
}

function error(status: number, type: string, message: string, code?: string): { status: number; body: unknown } {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } };
}
