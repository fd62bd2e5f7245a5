import crypto from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import { requestLoader } from '../../core/loaders.js';
import { multiply, sum } from '../../core/money.js';
import { connectionFromRows, decodeCursor, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { normaliseEmail } from '../auth/auth.validation.js';
import { CARD_MEDIA_SLOTS, EGreetingCard } from '../catalogue/e-greeting-card.entity.js';
import { E_GREETING_CARD_TYPE_ID } from '../catalogue/product-type.entity.js';
import { Product } from '../catalogue/product.entity.js';
import { cardDesignOf } from './card-design.js';
import type { DeliveryService } from './delivery.service.js';
import { OrderItem } from './order-item.entity.js';
import { cleanCard, cleanCartLines, cleanIdempotencyKey, cleanPersonalisation, type CartLine, type Personalisation } from './order-rules.js';
import { Order, OrderStatus } from './order.entity.js';
import type { PaymentProvider } from './payment/payment-provider.js';
import { containsEveryWord } from '../../core/text-search.js';

export interface CartQuoteLine {
  index: number;
  product: Product;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
}

export interface CartQuote {
  lines: CartQuoteLine[];
  droppedProductIds: number[];
  total: string;
  itemCount: number;
}

export interface PlaceOrderInput {
  idempotencyKey?: unknown;
  purchaserEmail?: unknown;
  lines?: unknown;
  payment?: unknown;
}

export interface OrderSearchArgs {
  search?: string | null;
  first?: number | null;
  after?: string | null;
}

export interface OrderServiceOptions {
  providers: PaymentProvider[];
  deliveries: DeliveryService;
  clock: () => Date;
}

export const MAX_ORDER_PAGE = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEARCH_WORDS = 6;

/**
 * Cart pricing, checkout and order look-up. Every price comes from the catalogue at the moment of the
 * call; a client never sends one. Placing an order is idempotent by key, also under concurrency.
 */
export class OrderService {
  private readonly providers: Map<string, PaymentProvider>;

  constructor(private readonly options: OrderServiceOptions) {
    this.providers = new Map(options.providers.map((provider) => [provider.name, provider]));
  }

  /** Prices a cart; lines whose product no longer exists are dropped and reported. */
  async quote(ctx: RequestContext, rawLines: unknown): Promise<CartQuote> {
    const lines = cleanCartLines(rawLines);
    const products = await this.products(ctx.em, lines);
    return priceLines(lines, products);
  }

  /** Charges the cart and records the order, its items and its e-mails; a repeated key returns the first order. */
  async place(ctx: RequestContext, input: PlaceOrderInput): Promise<Order> {
    const now = this.options.clock();
    const key = cleanIdempotencyKey(input.idempotencyKey);
    const purchaserEmail = normaliseEmail(input.purchaserEmail, 'purchaserEmail');
    const lines = cleanCartLines(input.lines);
    if (!lines.length) throw badInput('Your cart is empty.', 'lines');
    const payment = (input.payment ?? {}) as Record<string, unknown>;
    const providerName = typeof payment.provider === 'string' && payment.provider ? payment.provider : 'test';
    const provider = this.providers.get(providerName);
    if (!provider) throw badInput(`Unknown payment provider "${providerName}".`, 'payment.provider');
    const card = cleanCard(input.payment, now);
    const requestHash = hashRequest(purchaserEmail, lines);

    const earlier = await this.byKey(ctx.em, key, requestHash);
    if (earlier) return earlier;

    const viewer = await ctx.viewer();
    const order = await ctx.em.transactional(async (em) => {
      // One checkout per key at a time: a concurrent retry waits here, then finds the finished order.
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
      const finished = await this.byKey(em, key, requestHash);
      if (finished) return finished;

      const products = await this.products(em, lines, true);
      const quote = priceLines(lines, products);
      if (quote.droppedProductIds.length) {
        throw badInput('Some products in your cart are no longer available; review your cart.', 'lines');
      }
      const personalisations = lines.map((line, index) => checkLine(line, index, products.get(line.productId)!, now));

      // The charge happens inside the lock (and with the same key at the provider), so that no
      // interleaving of retries can charge twice or lose the order of a successful charge.
      const charge = await provider.charge({ amount: quote.total, currency: 'USD', card, idempotencyKey: key, description: `Art & Song Cards order (${quote.itemCount} items)` });
      if (charge.status === 'declined') throw new AppError('PAYMENT_DECLINED', charge.message);

      const order = em.create(Order, {
        id: crypto.randomUUID(),
        purchaserEmail,
        status: OrderStatus.PAID,
        total: quote.total,
        user: viewer?.user ?? null,
        paymentProvider: provider.name,
        paymentReference: charge.reference,
        cardLast4: charge.last4,
        cardBrand: charge.brand,
        idempotencyKey: key,
        requestHash,
        itemNames: lines.map((line) => products.get(line.productId)!.product.name.toLowerCase()).join(' '),
        createdAt: now,
      });
      const items = quote.lines.map((line, position) => {
        const { product, card: design } = products.get(line.product.id)!;
        const personal = personalisations[line.index];
        return em.create(OrderItem, {
          order,
          position,
          product,
          name: product.name,
          price: line.unitPrice,
          quantity: line.quantity,
          ...(personal && design
            ? {
                itemUrlUuid: crypto.randomUUID(),
                recipientName: personal.recipientName,
                recipientEmail: personal.recipientEmail,
                senderName: personal.senderName,
                message: personal.message,
                deliverAt: personal.deliverAt,
                timeZone: personal.timeZone,
                card: cardDesignOf(design),
              }
            : {}),
        });
      });
      this.options.deliveries.queueForOrder(em, order, items, now);
      await em.flush();
      ctx.log.info({ orderId: order.id, total: order.total, items: items.length }, 'order placed');
      return order;
    });
    this.options.deliveries.kick();
    return order;
  }

  /** An order by its UUID (anything else is simply not found). */
  async get(ctx: RequestContext, id: string): Promise<Order> {
    const order = UUID.test(id) ? await ctx.em.findOne(Order, { id: id.toLowerCase() }) : null;
    if (!order) throw notFound('Order');
    return order;
  }

  /** The items of an order, in order; batched across the orders of a request. */
  async itemsOf(ctx: RequestContext, order: Order): Promise<OrderItem[]> {
    const loader = requestLoader<string, OrderItem[]>(ctx, 'order.items', async (ids) => {
      const rows = await ctx.em.find(OrderItem, { order: { $in: [...ids] } }, { orderBy: { order: 'asc', position: 'asc' } });
      const byOrder = new Map<string, OrderItem[]>();
      for (const row of rows) byOrder.set(row.order.id, [...(byOrder.get(row.order.id) ?? []), row]);
      return byOrder;
    });
    return (await loader.load(order.id)) ?? [];
  }

  /** Orders newest first, matching every word of the search in the id, the e-mail, the status or an item name. */
  async search(ctx: RequestContext, args: OrderSearchArgs): Promise<ConnectionResult<Order>> {
    const size = pageSize(args.first, MAX_ORDER_PAGE);
    const where = searchFilter(args.search);
    let keyset: FilterQuery<Order> = {};
    if (args.after) {
      const cursor = decodeCursor<{ t: string; id: string }>(args.after, { t: 'string', id: 'string' });
      const at = new Date(cursor.t);
      if (Number.isNaN(at.getTime())) throw badInput('The cursor is not valid.', 'after');
      keyset = { $or: [{ createdAt: { $lt: at } }, { createdAt: at, id: { $lt: cursor.id } }] };
    }
    const [rows, totalCount] = await Promise.all([
      ctx.em.find(Order, { $and: [where, keyset] }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: size + 1 }),
      ctx.em.count(Order, where),
    ]);
    return connectionFromRows(rows, { size, after: args.after, totalCount, cursorOf: (o) => ({ t: o.createdAt.toISOString(), id: o.id }) });
  }

  /** Every matching order with its items, newest first (the REST list). */
  async list(ctx: RequestContext, search: string | null | undefined): Promise<{ order: Order; items: OrderItem[] }[]> {
    const orders = await ctx.em.find(Order, searchFilter(search), { orderBy: { createdAt: 'desc', id: 'desc' } });
    return Promise.all(orders.map(async (order) => ({ order, items: await this.itemsOf(ctx, order) })));
  }

  /** Queues a card's e-mail to its recipient again. */
  async resendCard(ctx: RequestContext, itemId: number): Promise<OrderItem> {
    const item = await ctx.em.transactional(async (em) => {
      const item = await em.findOne(OrderItem, itemId, { populate: ['order'] });
      if (!item) throw notFound('Order item');
      if (!item.itemUrlUuid) throw badInput('Only e-cards are sent by e-mail.', 'itemId');
      this.options.deliveries.queueResend(em, item);
      await em.flush();
      return item;
    });
    ctx.log.info({ itemId, orderId: item.order.id }, 'card e-mail resend queued');
    this.options.deliveries.kick();
    return item;
  }

  // ---- internals ----

  private async byKey(em: EntityManager, key: string, requestHash: string): Promise<Order | null> {
    const order = await em.findOne(Order, { idempotencyKey: key }, { fields: ['*', 'requestHash'] as never });
    if (order && order.requestHash !== requestHash) throw conflict('This checkout was already used for a different order; reload the page and try again.', 'idempotencyKey');
    return order;
  }

  /** The products of the lines, with the card data (and its media) of e-cards. */
  private async products(em: EntityManager, lines: CartLine[], withCards = false): Promise<Map<number, PricedProduct>> {
    const ids = [...new Set(lines.map((line) => line.productId))];
    if (!ids.length) return new Map();
    const products = await em.find(Product, { id: { $in: ids } }, { populate: ['mainImage'] });
    const cardIds = products.filter((p) => p.type.id === E_GREETING_CARD_TYPE_ID).map((p) => p.id);
    const cards = withCards && cardIds.length ? await em.find(EGreetingCard, { product: { $in: cardIds } }, { populate: [...CARD_MEDIA_SLOTS] }) : [];
    const cardOf = new Map(cards.map((card) => [card.product.id, card]));
    return new Map(products.map((product) => [product.id, { product, isCard: product.type.id === E_GREETING_CARD_TYPE_ID, card: cardOf.get(product.id) ?? null }]));
  }
}

interface PricedProduct {
  product: Product;
  isCard: boolean;
  card: EGreetingCard | null;
}

function priceLines(lines: CartLine[], products: Map<number, { product: Product }>): CartQuote {
  const priced: CartQuoteLine[] = [];
  const dropped = new Set<number>();
  lines.forEach((line, index) => {
    const product = products.get(line.productId)?.product;
    if (!product) dropped.add(line.productId);
    else priced.push({ index, product, quantity: line.quantity, unitPrice: product.price, lineTotal: multiply(product.price, line.quantity) });
  });
  return {
    lines: priced,
    droppedProductIds: [...dropped],
    total: sum(priced.map((line) => line.lineTotal)),
    itemCount: priced.reduce((count, line) => count + line.quantity, 0),
  };
}

/** A card line needs its personalisation and is one card; other lines must not carry one. */
function checkLine(line: CartLine, index: number, { isCard, product }: PricedProduct, now: Date): Personalisation | null {
  const field = `lines.${index}`;
  if (!isCard) {
    if (line.personalisation) throw badInput(`"${product.name}" is not a card and takes no personal message.`, `${field}.personalisation`);
    return null;
  }
  if (line.quantity !== 1) throw badInput('A card goes to one recipient: add it again for another.', `${field}.quantity`);
  return cleanPersonalisation(line.personalisation, `${field}.personalisation`, now);
}

function searchFilter(search: string | null | undefined): FilterQuery<Order> {
  const words = containsEveryWord(search, SEARCH_WORDS);
  return words.length ? { $and: words } : {};
}

/** A digest of what an order asks for, so that one key cannot stand for two different orders. */
function hashRequest(email: string, lines: CartLine[]): string {
  return crypto.createHash('sha256').update(JSON.stringify({ email, lines })).digest('hex');
}
