import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { AppError, badInput, said } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';
import { normaliseEmail } from '../auth/index.js';
import type { Product } from '../catalogue/index.js';
import type { RateLimits } from '../limits/index.js';
import { Order, OrderStatus, type CardDesign, type OrderEmails, type OrderItem } from '../orders/index.js';
import { optionalCode, type DiscountService } from '../discount/index.js';
import { normaliseGiftCardCode, type GiftCardService } from '../gift-cards/index.js';
import type { GiftMembershipService, MemberBenefits } from '../memberships/index.js';
import type { GroupCardRequest } from '../group-card/index.js';
import { basketOf, priceLines, withDiscount, type CartQuote } from './cart-pricing.js';
import { pricedProducts, type PricedProduct } from './priced-products.js';
import type { RecipientCheck } from './card-recipients.js';
import { cleanCard, cleanCartLines, cleanIdempotencyKey, orderLocale, type CartLine } from './checkout-rules.js';
import { OrderSettlement } from './order-settlement.js';
import type { ChargeResult, PaymentProvider } from '../payments/index.js';
import { chargePending } from './pending-orders.js';
import { PendingOrderWriter, type WrittenOrder } from './pending-order-writer.js';
import type { WebhookEvents } from '../webhooks/index.js';
import { defineMessages } from '@formatjs/intl';
import { priceIn } from '../../i18n/intl.js';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  paymentsOff: { id: 'error.checkout.paymentsOff', defaultMessage: 'Payments are not set up in this shop yet, so orders cannot be placed.' },
  emptyCart: { id: 'error.checkout.emptyCart', defaultMessage: 'Your cart is empty.' },
  giftCardPartly: { id: 'error.checkout.giftCardPartly', defaultMessage: 'Your gift card pays {paid} of {total}: enter a card for the remaining {due}.' },
  giftCardCode: { id: 'error.checkout.giftCardCode', defaultMessage: 'A gift card code is 16 letters and digits.' },
});

export type { CartQuote, CartQuoteLine } from './cart-pricing.js';

/** A quoted line's product: what pricing read of it. */
export type QuotedProduct = PricedProduct['product'];

export interface PlaceOrderInput {
  idempotencyKey?: unknown;
  purchaserEmail?: unknown;
  lines?: unknown;
  payment?: unknown;
  discountCode?: unknown;
  /** A gift card's code: it pays as much of the order as it holds, the card the rest. */
  giftCardCode?: unknown;
  /** "Tell me when my card is opened" (default on). */
  notifyWhenOpened?: unknown;
  /** The language of the page it was bought from (English when left out). */
  locale?: unknown;
}

export interface CheckoutOptions {
  /** The provider that charges orders; null when payments are not set up. */
  provider: PaymentProvider | null;
  limits: RateLimits;
  /** Keeps the media a sold card needs. */
  media: {
    recordSold(tx: RequestContext, items: readonly { card?: CardDesign | null }[]): Promise<void>;
    /** Whether every file the items show is known kept already (recordSold would write nothing). */
    soldKnown(items: readonly { card?: CardDesign | null }[]): boolean;
  };
  /** The order's e-mails (receipt and cards), queued when it is paid. */
  orderEmails: OrderEmails;
  clock: () => Date;
  discounts: DiscountService;
  /** What a signed-in shopper's membership gives (their e-cards free, a percentage off the rest); null: none. */
  benefits?: (em: EntityManager, userId: number) => Promise<MemberBenefits | null>;
  /** Gift cards: spent in the checkout's transaction, given back when the payment fails. */
  giftCards: Pick<GiftCardService, 'claim' | 'release' | 'issuePurchased'>;
  /** Gift memberships: issued when the order that bought them is paid. */
  giftMemberships?: Pick<GiftMembershipService, 'issuePurchased'>;
  /** Checks of every recipient of an order, run in its transaction (see card-recipients.ts). */
  recipientChecks?: RecipientCheck[];
  /** Keeps a signed-in shopper's time zone on their account (their occasion reminders come at 09:00 there). */
  rememberTimeZone?: (ctx: RequestContext, userId: number, timeZone: string) => Promise<void>;
  /** The shop's products as its pages show them (a quote's lines, when asked for), batched across a request. */
  products: { productOf(ctx: RequestContext, id: number): Promise<Product> };
  /** Makes a card being ordered a group card (its signing token and deadline), in the checkout's transaction. */
  groupCards: { attach(em: EntityManager, item: OrderItem, request: GroupCardRequest): unknown };
  /** Where paid orders are told to the webhook endpoints (order.paid), in the transaction that pays them. */
  webhooks: WebhookEvents;
}

/**
 * Cart pricing and checkout. Every price comes from the catalogue at the moment of the call; a client
 * never sends one. Placing an order is idempotent by key, also under concurrency.
 */
export class CheckoutService {
  private readonly recipientChecks: RecipientCheck[];
  private readonly writer: PendingOrderWriter;
  private readonly settlement: OrderSettlement;

  constructor(private readonly options: CheckoutOptions) {
    this.recipientChecks = [...(options.recipientChecks ?? [])];
    this.writer = new PendingOrderWriter(options, this.recipientChecks);
    this.settlement = new OrderSettlement(options);
  }

  /**
   * Adds a check every recipient of every order goes through, in the order's transaction (a refused
   * recipient refuses the order with BAD_USER_INPUT on their field); returns how to remove it again.
   */
  registerRecipientCheck(check: RecipientCheck): () => void {
    this.recipientChecks.push(check);
    return () => void this.recipientChecks.splice(this.recipientChecks.indexOf(check), 1);
  }

  /** Whether checkout can take payments, and with which provider (the payment page says so). */
  paymentSetup(): { available: boolean; provider: string | null; publishableKey: string | null } {
    return { available: this.options.provider !== null, provider: this.options.provider?.name ?? null, publishableKey: this.options.provider?.publishableKey ?? null };
  }

  /**
   * Prices a cart with the discount it gets (see DiscountService.price); lines whose product no longer
   * exists are dropped and reported. The lines are priced by the statement that prices an order (the
   * sales running now), and the discount's reads (a code's point and row) run beside it: a quote is
   * asked at every change of a cart. Its products are plain rows; the shop's products are read only
   * when the caller shows them (`withProducts`: read beside the rest, then answered by productOf).
   */
  async quote(ctx: RequestContext, rawLines: unknown, rawCode?: unknown, options: { withProducts?: boolean } = {}): Promise<CartQuote<QuotedProduct>> {
    const lines = cleanCartLines(rawLines);
    const code = optionalCode(rawCode);
    // A product the quote drops (gone, a draft) is never asked for: its refusal here is nobody's error.
    if (options.withProducts) for (const line of lines) this.options.products.productOf(ctx, line.productId).catch(() => undefined);
    const benefits = this.benefitsOf(ctx);
    const priced = Promise.all([pricedProducts(ctx.em, lines.map((line) => line.productId), this.options.clock()), benefits]).then(([products, member]) => priceLines(lines, products, member));
    const [quote, discount] = await Promise.all([priced, this.options.discounts.price(ctx, code, priced.then(basketOf))]);
    return withDiscount(quote, discount);
  }

  /** The signed-in shopper's membership benefits (none for a guest: no query). */
  private async benefitsOf(ctx: RequestContext): Promise<MemberBenefits | null> {
    if (!this.options.benefits) return null;
    const viewer = await ctx.viewer();
    return viewer ? this.options.benefits(ctx.em, viewer.user.id) : null;
  }

  /** A quoted line's product as the shop shows it, batched across the lines of a request. */
  productOf(ctx: RequestContext, product: QuotedProduct): Promise<Product> {
    return this.options.products.productOf(ctx, product.id);
  }

  /**
   * Charges the cart and records the order, its items and its e-mails; a repeated key returns the
   * first order. No transaction or lock is held while the provider is called: the order is first
   * written as `pending` (the key's unique index lets one checkout per key through), then charged
   * with the key as the provider's idempotency key, then settled. A concurrent or later retry of the
   * same key that finds the order pending asks the provider again with the same key (it answers with
   * the first outcome and never charges twice) and settles it the same way, so a crash between the
   * charge and the settling is finished by the shopper's retry.
   */
  async place(ctx: RequestContext, input: PlaceOrderInput): Promise<Order> {
    const provider = this.options.provider;
    if (!provider) throw new AppError('PAYMENTS_UNAVAILABLE', refusals.paymentsOff);
    await this.options.limits.take([this.options.limits.rules.checkout, ctx.ip]);
    const now = this.options.clock();
    const key = cleanIdempotencyKey(input.idempotencyKey);
    const purchaserEmail = normaliseEmail(input.purchaserEmail, 'purchaserEmail');
    const lines = cleanCartLines(input.lines);
    if (!lines.length) throw badInput(refusals.emptyCart, 'lines');
    const payment = input.payment && typeof input.payment === 'object' ? (input.payment as Record<string, unknown>) : {};
    // The shop alone decides who charges an order: a provider named by the client is refused.
    if ('provider' in payment && payment.provider !== undefined) throw badInput('The payment provider is chosen by the shop, not by the checkout.', 'payment.provider');
    const giftCardCode = optionalGiftCardCode(input.giftCardCode);
    // With a gift card the card may be left out: it is asked for only if the gift card does not pay everything.
    const card = provider.collectsCardInBrowser || (giftCardCode && !hasCard(payment)) ? null : cleanCard(input.payment, now);
    const discountCode = optionalCode(input.discountCode);
    const locale = orderLocale(input.locale);
    const requestHash = hashRequest(purchaserEmail, lines, discountCode, giftCardCode);

    // A repeated key finds its order in createPending: a placed one is the
    // answer, a pending one is charged again with the same key (the provider answers the first outcome).
    const viewer = await ctx.viewer();
    const benefits = viewer && this.options.benefits ? await this.options.benefits(ctx.em, viewer.user.id) : null;
    const pending = await this.options.discounts.whileClaiming(ctx, discountCode, () =>
      this.writer.createPending(ctx, { key, requestHash, purchaserEmail, lines, discountCode, giftCardCode, provider, viewerId: viewer?.user.id ?? null, benefits, now, notifyOpened: input.notifyWhenOpened !== false, locale }),
    );
    if (pending instanceof Order && pending.status !== OrderStatus.PENDING) return pending;

    // What is left for the card once a gift card has paid its part.
    const due = pending instanceof Order ? pending.chargedAmount : pending.due;
    if (!card && !provider.collectsCardInBrowser && toCents(due) > 0) {
      await this.dropPending(ctx, pending.id);
      throw badInput(said(refusals.giftCardPartly, { paid: priceIn(fromCents(toCents(pending.total) - toCents(due))), total: priceIn(pending.total), due: priceIn(due) }), 'payment');
    }
    const charge = await chargePending(ctx, this, provider, { amount: due, currency: 'USD', card, idempotencyKey: key, description: `Art & Song Cards order ${pending.id}`, orderId: pending.id });
    const order = await this.settle(ctx, pending.id, charge, now, pending instanceof Order ? undefined : pending);
    if (viewer) await this.rememberTimeZone(ctx, viewer.user.id, lines);
    return order;
  }

  /** A signed-in shopper's zone, as their browser sent it with their cards, kept on their account (never fails the order). */
  private async rememberTimeZone(ctx: RequestContext, userId: number, lines: CartLine[]): Promise<void> {
    const zone = lines.map((line) => (line.personalisation as { timeZone?: unknown } | null)?.timeZone).find((value): value is string => typeof value === 'string' && value !== '');
    if (!zone || !this.options.rememberTimeZone) return;
    await this.options.rememberTimeZone(ctx, userId, zone).catch((error: unknown) => ctx.log.warn({ err: error }, "could not keep the shopper's time zone"));
  }

  /** Records the provider's outcome for an order (see OrderSettlement.settle). */
  settle(ctx: RequestContext, orderId: string, charge: ChargeResult, now: Date, written?: WrittenOrder): Promise<Order> {
    return this.settlement.settle(ctx, orderId, charge, now, written);
  }

  /** Removes an order whose payment failed (see OrderSettlement.dropPending). */
  dropPending(ctx: RequestContext, orderId: string, status: OrderStatus.CANCELLED | null = null): Promise<void> {
    return this.settlement.dropPending(ctx, orderId, status);
  }
}

/** A digest of what an order asks for, so that one key cannot stand for two different orders. */
function hashRequest(email: string, lines: CartLine[], discountCode: string | null, giftCardCode: string | null): string {
  const request: Record<string, unknown> = discountCode ? { email, lines, discountCode: discountCode.toLowerCase() } : { email, lines };
  if (giftCardCode) request.giftCard = normaliseGiftCardCode(giftCardCode) ?? giftCardCode;
  return crypto.hash('sha256', JSON.stringify(request));
}

/** A gift card code as given (checked when it is spent); null when none was. */
function optionalGiftCardCode(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 64) throw badInput(refusals.giftCardCode, 'giftCardCode');
  return value.trim() || null;
}

/** Whether a payment carries card details (a gift card may make them unnecessary). */
const hasCard = (payment: Record<string, unknown>): boolean => payment.cardNumber !== undefined && payment.cardNumber !== null && payment.cardNumber !== '';
