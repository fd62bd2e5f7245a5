import crypto from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { AppError, badInput, conflict } from '../../core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../core/money.js';
import { normaliseEmail } from '../auth/auth.validation.js';
import { E_GREETING_CARD_TYPE_ID } from '../catalogue/product-type.entity.js';
import { Product } from '../catalogue/product.entity.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { CardDesign } from '../orders/card-design.js';
import type { OrderEmails } from '../orders/order-emails.js';
import { insertOrder, orderByKey, payOrder, payOrderQueueing, type NewOrder, type NewOrderItem, type OrderCard } from '../orders/order-item-rows.js';
import { OrderItem } from '../orders/order-item.entity.js';
import { cleanCard, cleanCartLines, cleanIdempotencyKey, cleanPersonalisation, MAX_QUANTITY, type CartLine, type Personalisation } from './checkout-rules.js';
import { QUANTITY_MESSAGE } from '../../rules/schemas.js';
import { cardItems, cardQuantity, checkRecipients, orderRecipients, type RecipientCheck } from './card-recipients.js';
import { Order, OrderStatus } from '../orders/order.entity.js';
import type { ChargeResult, PaymentProvider } from './payment/payment-provider.js';
import { clientSecrets } from './payment/client-secrets.js';
import { chargePending } from './pending-orders.js';
import { pricedProducts, type PricedProduct } from './priced-products.js';
import type { DiscountService } from '../discount/discount.service.js';
import { optionalCode } from '../discount/discount-rules.js';
import { groupCardRequest, type GroupCardRequest } from '../group-card/group-card-rules.js';

export interface CartQuoteLine<P = Product> {
  index: number;
  product: P;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
}

export interface CartQuote<P = Product> {
  lines: CartQuoteLine<P>[];
  droppedProductIds: number[];
  /** The lines together, before a discount. */
  subtotal: string;
  /** What the discount code took off ("0.00" without one). */
  discount: string;
  discountCode: string | null;
  total: string;
  itemCount: number;
}

export interface PlaceOrderInput {
  idempotencyKey?: unknown;
  purchaserEmail?: unknown;
  lines?: unknown;
  payment?: unknown;
  discountCode?: unknown;
  /** "Tell me when my card is opened" (default on). */
  notifyWhenOpened?: unknown;
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
  /** Checks of every recipient of an order, run in its transaction (see card-recipients.ts). */
  recipientChecks?: RecipientCheck[];
  /** Keeps a signed-in shopper's time zone on their account (their occasion reminders come at 09:00 there). */
  rememberTimeZone?: (ctx: RequestContext, userId: number, timeZone: string) => Promise<void>;
  /** Makes a card being ordered a group card (its signing token and deadline), in the checkout's transaction. */
  groupCards: { attach(em: EntityManager, item: OrderItem, request: GroupCardRequest): unknown };
}

/** A pending order as its checkout has just written it: what charging and paying it need. */
interface WrittenOrder {
  id: string;
  total: string;
  purchaserEmail: string;
  /** How many items it has. */
  items: number;
  cards: OrderCard[];
}

/** What createPending is given. */
interface PendingArgs {
  key: string;
  requestHash: string;
  purchaserEmail: string;
  lines: CartLine[];
  discountCode: string | null;
  provider: PaymentProvider;
  viewerId: number | null;
  now: Date;
  notifyOpened: boolean;
}

/** An order made from the cart, before it is written (see CheckoutService.draft). */
interface OrderDraft {
  quote: CartQuote<PricedProduct['product']>;
  items: NewOrderItem[];
  /** The group cards' requests, by the position of their item. */
  groupCards: Map<number, GroupCardRequest>;
  itemNames: string;
}

/** Thrown in the locked way when its INSERT found the key taken (see createPending). */
class KeyTaken extends Error {}

/** A checkout's lock on its idempotency key (see createPendingLocked). */
const LOCK_KEY = preparedRead('checkout_lock_key', 'select pg_advisory_xact_lock(hashtextextended($1, 0))');

/**
 * Cart pricing and checkout. Every price comes from the catalogue at the moment of the call; a client
 * never sends one. Placing an order is idempotent by key, also under concurrency.
 */
export class CheckoutService {
  private readonly recipientChecks: RecipientCheck[];

  constructor(private readonly options: CheckoutOptions) {
    this.recipientChecks = [...(options.recipientChecks ?? [])];
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

  /** Prices a cart; lines whose product no longer exists are dropped and reported. */
  async quote(ctx: RequestContext, rawLines: unknown, rawCode?: unknown): Promise<CartQuote> {
    const lines = cleanCartLines(rawLines);
    const code = optionalCode(rawCode);
    const products = await this.products(ctx.em, lines);
    const quote = priceLines(lines, products);
    return code ? withDiscount(quote, await this.options.discounts.price(ctx, code, quote.subtotal)) : quote;
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
    if (!provider) throw new AppError('PAYMENTS_UNAVAILABLE', 'Payments are not set up in this shop yet, so orders cannot be placed.');
    await this.options.limits.take([this.options.limits.rules.checkout, ctx.ip]);
    const now = this.options.clock();
    const key = cleanIdempotencyKey(input.idempotencyKey);
    const purchaserEmail = normaliseEmail(input.purchaserEmail, 'purchaserEmail');
    const lines = cleanCartLines(input.lines);
    if (!lines.length) throw badInput('Your cart is empty.', 'lines');
    const payment = input.payment && typeof input.payment === 'object' ? (input.payment as Record<string, unknown>) : {};
    // The shop alone decides who charges an order: a provider named by the client is refused.
    if ('provider' in payment && payment.provider !== undefined) throw badInput('The payment provider is chosen by the shop, not by the checkout.', 'payment.provider');
    const card = provider.collectsCardInBrowser ? null : cleanCard(input.payment, now);
    const discountCode = optionalCode(input.discountCode);
    const requestHash = hashRequest(purchaserEmail, lines, discountCode);

    // A repeated key finds its order in createPending: a placed one is the
    // answer, a pending one is charged again with the same key (the provider answers the first outcome).
    const viewer = await ctx.viewer();
    const pending = await this.options.discounts.whileClaiming(ctx, discountCode, () => this.createPending(ctx, { key, requestHash, purchaserEmail, lines, discountCode, provider, viewerId: viewer?.user.id ?? null, now, notifyOpened: input.notifyWhenOpened !== false }));
    if (pending instanceof Order && pending.status !== OrderStatus.PENDING) return pending;

    const charge = await chargePending(ctx, this, provider, { amount: pending.total, currency: 'USD', card, idempotencyKey: key, description: `Art & Song Cards order ${pending.id}`, orderId: pending.id });
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

  /**
   * Writes the order and its items as `pending` and answers what paying it needs, or returns the order
   * another checkout of the key wrote first.
   */
  private async createPending(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder> {
    if (!args.discountCode) {
      const written = await this.createPendingAtOnce(ctx, args);
      if (written) return written;
    }
    try {
      return await this.createPendingLocked(ctx, args);
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      // A checkout of the same key without the lock (in another process) wrote its order meanwhile.
      const existing = await this.byKey(ctx.em, args.key, args.requestHash);
      if (existing) return existing;
      throw conflict('This checkout changed while it was being placed; reload the page and try again.', 'idempotencyKey');
    }
  }

  /**
   * The common checkout (no discount code to count) in two reads and one write, without a transaction
   * or a lock: the order with its items is one INSERT, atomic on its own, that the key's unique index
   * lets through once. A retry of a placed order writes nothing there (a concurrent checkout of the
   * same key still under way is waited for) and the locked way then answers the key's order; a retry
   * that the cart's checks refuse now (a product gone since, say) gets it too. Null: this checkout takes the
   * locked way (also for a group card, whose signing link is written with the order, and for card files
   * not yet known kept, which are recorded with it).
   */
  private async createPendingAtOnce(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder | null> {
    let draft: OrderDraft;
    try {
      draft = await this.draft(ctx, args);
    } catch (error) {
      // A retry of an order placed before its cart's checks would refuse it now: that order is the answer.
      if (!(error instanceof AppError)) throw error;
      const existing = await this.byKey(ctx.em, args.key, args.requestHash);
      if (existing) return existing;
      throw error;
    }
    if (draft.groupCards.size || !this.options.media.soldKnown(draft.items)) return null;
    const written = await insertOrder(ctx.em, newOrder(args, draft), draft.items);
    return written && writtenOrder(args, draft, written);
  }

  /** Checkout in a transaction that holds the key's lock (see createPending). */
  private async createPendingLocked(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder> {
    return ctx.em.fork().transactional(async (em) => {
      // A short lock per key (no payment inside): the second checkout of a key finds the first one's order.
      await runPrepared(em, LOCK_KEY, [args.key]);
      const existing = await this.byKey(em, args.key, args.requestHash);
      if (existing) return existing;
      const tx = withEm(ctx, em);
      const draft = await this.draft(tx, args);
      // The code's use is counted in this transaction: it is given back only if the payment fails.
      if (args.discountCode) draft.quote = withDiscount(draft.quote, await this.options.discounts.claim(tx, args.discountCode, draft.quote.subtotal));
      // The media of the cards are kept from now on, also while the payment is under way.
      await this.options.media.recordSold(tx, draft.items);
      // The order and its lines in one INSERT (see insertOrder); then a group card's signing link, by its item.
      const written = await insertOrder(em, newOrder(args, draft), draft.items);
      // The key was taken after the look-up by a checkout that takes no lock: everything here is rolled back.
      if (!written) throw new KeyTaken('The idempotency key was taken by a checkout without the lock');
      if (draft.groupCards.size) {
        for (const [at, request] of draft.groupCards) this.options.groupCards.attach(em, em.getReference(OrderItem, written.itemIds[at]!), request);
        await em.flush();
      }
      return writtenOrder(args, draft, written);
    });
  }

  /**
   * Reads the lines' products (with their card designs), checks every line and every recipient,
   * prices the order and makes its items; writes nothing.
   */
  private async draft(tx: RequestContext, args: PendingArgs): Promise<OrderDraft> {
    const { lines, now } = args;
    const products = await pricedProducts(tx.em, lines.map((line) => line.productId));
    if (lines.some((line) => !products.has(line.productId))) {
      throw badInput('Some products in your cart are no longer available; review your cart.', 'lines');
    }
    const personalisations = lines.map((line, index) => checkLine(line, index, products.get(line.productId)!, now));
    await checkRecipients(tx, orderRecipients(lines, personalisations), this.recipientChecks);
    // A card line is priced for its recipients: one card each.
    const quote = priceLines(lines.map((line, index) => ({ ...line, quantity: personalisations[index]?.recipients.length ?? line.quantity })), products);
    // Every item of the order: a card line makes one item per recipient (card-recipients.ts), any
    // other line one item of its quantity.
    let position = 0;
    const items: NewOrderItem[] = [];
    const groupCards = new Map<number, GroupCardRequest>();
    for (const line of quote.lines) {
      const { product, card: design } = products.get(line.product.id)!;
      const personal = personalisations[line.index];
      const rows: NewOrderItem[] = personal && design
        ? cardItems({ product, design, price: line.unitPrice, personal, position })
        : [{ position, productId: product.id, name: product.name, price: line.unitPrice, quantity: line.quantity }];
      items.push(...rows);
      if (personal?.groupCard) groupCards.set(position, personal.groupCard);
      position += rows.length;
    }
    // Each product's name once: what the admin's order search needs.
    const itemNames = [...new Set(lines.map((line) => products.get(line.productId)!.product.name.toLowerCase()))].join(' ');
    return { quote, items, groupCards, itemNames };
  }

  /**
   * Records the provider's outcome: a paid order gets its e-mails queued (once, whoever settles
   * first); a declined one is removed again, and the decline is the answer. `written`: the order as
   * this checkout has just written it, whose e-mails are then queued by the statement that pays it.
   */
  async settle(ctx: RequestContext, orderId: string, charge: ChargeResult, now: Date, written?: WrittenOrder): Promise<Order> {
    if (charge.status === 'declined') {
      await this.dropPending(ctx, orderId);
      throw new AppError('PAYMENT_DECLINED', charge.message);
    }
    if (charge.status === 'pending') {
      // The browser confirms the payment; the provider's signed event settles the order later.
      await ctx.em.fork().nativeUpdate(Order, { id: orderId, status: OrderStatus.PENDING }, { paymentReference: charge.reference });
      const order = await ctx.em.findOneOrFail(Order, orderId, { refresh: true });
      if (order.status === OrderStatus.PENDING) clientSecrets.set(order, charge.clientSecret);
      return order;
    }
    if (written) {
      // One statement marks it paid (only while pending) and queues its e-mails; when another
      // settling came first, the general way below answers the order as that one left it.
      const row = await payOrderQueueing(ctx.em, orderId, charge, this.options.orderEmails.batchForOrder(written, written.cards, now));
      if (row) {
        const order = ctx.em.map(Order, row);
        ctx.log.info({ orderId: order.id, total: order.total, items: written.items }, 'order placed');
        return order;
      }
    }
    const order = await ctx.em.fork().transactional(async (em) => {
      // One statement marks it paid (only while pending) and reads its lines for their e-mails.
      const paid = await payOrder(em, orderId, charge);
      if (!paid) {
        const order = await em.findOne(Order, orderId);
        if (!order) throw new AppError('CONFLICT', 'This checkout was cancelled; reload the page and try again.');
        return order;
      }
      const order = em.map(Order, paid.row);
      await this.options.orderEmails.queueForOrder(em, order, paid.cards, now);
      ctx.log.info({ orderId: order.id, total: order.total, items: paid.lines }, 'order placed');
      return order;
    });
    // The order as this settling wrote it (paid), not a stale pending copy; not read again either:
    // its e-mails, queued due now, may already be going out and make it delivered.
    return order;
  }

  /** Removes an order whose payment failed (it was never paid), giving its discount code's use back. */
  async dropPending(ctx: RequestContext, orderId: string, status: OrderStatus.CANCELLED | null = null): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const order = await em.findOne(Order, { id: orderId, status: OrderStatus.PENDING }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) return;
      if (order.discountCode) await this.options.discounts.release(withEm(ctx, em), order.discountCode);
      if (status) order.status = status;
      else em.remove(order);
      await em.flush();
    });
  }

  // ---- internals ----

  /**
   * The order placed with the key, if any; CONFLICT when the key was used for a different order. In
   * the locked way it is read by its own statement after the lock's: a read in the lock's statement
   * would see the database as it was before the lock was granted, without the order that the checkout
   * holding the lock has just committed.
   */
  private async byKey(em: EntityManager, key: string, requestHash: string): Promise<Order | null> {
    const order = await orderByKey(em, key);
    if (order && order.requestHash !== requestHash) throw conflict('This checkout was already used for a different order; reload the page and try again.', 'idempotencyKey');
    return order;
  }

  /** The products of the lines (a cart's quote shows them with their images). */
  private async products(em: EntityManager, lines: CartLine[]): Promise<Map<number, { product: Product; isCard: boolean }>> {
    const ids = [...new Set(lines.map((line) => line.productId))];
    if (!ids.length) return new Map();
    const products = await em.find(Product, { id: { $in: ids } }, { populate: ['mainImage'] });
    return new Map(products.map((product) => [product.id, { product, isCard: product.type.id === E_GREETING_CARD_TYPE_ID }]));
  }
}

function priceLines<P extends { id: number; name: string; price: string }>(lines: CartLine[], products: Map<number, { product: P; isCard: boolean }>): CartQuote<P> {
  const priced: CartQuoteLine<P>[] = [];
  const dropped = new Set<number>();
  lines.forEach((line, index) => {
    const { product, isCard } = products.get(line.productId) ?? {};
    if (!product) dropped.add(line.productId);
    // A card line's quantity counts its recipients (up to 100); anything else is 1 to 99 copies.
    else if (!isCard && line.quantity > MAX_QUANTITY) throw badInput(QUANTITY_MESSAGE, `lines.${index}.quantity`);
    else priced.push({ index, product, quantity: line.quantity, unitPrice: product.price, lineTotal: multiply(product.price, line.quantity) });
  });
  const total = sum(priced.map((line) => line.lineTotal));
  return {
    lines: priced,
    droppedProductIds: [...dropped],
    subtotal: total,
    discount: '0.00',
    discountCode: null,
    total,
    itemCount: priced.reduce((count, line) => count + line.quantity, 0),
  };
}

/** A card line needs its personalisation (one card per recipient; a group card is one card); other lines must not carry one. */
function checkLine(line: CartLine, index: number, { isCard, product }: PricedProduct, now: Date): (Personalisation & { groupCard: GroupCardRequest | null }) | null {
  const field = `lines.${index}`;
  if (!isCard) {
    if (line.personalisation) throw badInput(`"${product.name}" is not a card and takes no personal message.`, `${field}.personalisation`);
    return null;
  }
  const personal = cleanPersonalisation(line.personalisation, `${field}.personalisation`, now);
  cardQuantity(line, personal, field);
  const groupCard = groupCardRequest(line.personalisation, personal.deliverAt, now, `${field}.personalisation`);
  if (groupCard && personal.recipients.length !== 1) throw badInput('A group card goes to one recipient: the whole group signs the one card.', `${field}.personalisation.recipients`);
  return { ...personal, deliverAt: groupCard?.deliverAt ?? personal.deliverAt, groupCard };
}
/** A digest of what an order asks for, so that one key cannot stand for two different orders. */
function hashRequest(email: string, lines: CartLine[], discountCode: string | null): string {
  const request = discountCode ? { email, lines, discountCode: discountCode.toLowerCase() } : { email, lines };
  return crypto.hash('sha256', JSON.stringify(request));
}

function withDiscount<P>(quote: CartQuote<P>, applied: { code: string; amount: string }): CartQuote<P> {
  return { ...quote, discountCode: applied.code, discount: applied.amount, total: fromCents(toCents(quote.subtotal) - toCents(applied.amount)) };
}

/** The order's row as checkout writes it (pending until its payment is settled). */
function newOrder(args: PendingArgs, draft: OrderDraft): NewOrder {
  return {
    id: crypto.randomUUID(),
    purchaserEmail: args.purchaserEmail,
    total: draft.quote.total,
    userId: args.viewerId,
    paymentProvider: args.provider.name,
    idempotencyKey: args.key,
    requestHash: args.requestHash,
    itemNames: draft.itemNames,
    discountCode: draft.quote.discountCode,
    discountAmount: draft.quote.discount,
    notifyOpened: args.notifyOpened,
    createdAt: args.now,
  };
}

/** What paying the order just written needs: its total, its purchaser and its cards (ids by position). */
function writtenOrder(args: PendingArgs, draft: OrderDraft, written: { id: string; itemIds: number[] }): WrittenOrder {
  const cards = draft.items.flatMap((item) => (item.itemUrlUuid ? [{ id: written.itemIds[item.position]!, recipientEmail: item.recipientEmail!, deliverAt: item.deliverAt ?? null }] : []));
  return { id: written.id, total: draft.quote.total, purchaserEmail: args.purchaserEmail, items: draft.items.length, cards };
}
