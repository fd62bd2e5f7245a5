import type { RequestContext } from '../../core/context.js';
import { AppError, badInput, said } from '../../core/errors.js';
import type { NewOrderItem } from '../orders/index.js';
import { groupCardRequest, type GroupCardRequest } from '../group-card/index.js';
import { priceLines, type CartQuote, type PricingBenefits } from './cart-pricing.js';
import { cardItems, cardQuantity, checkRecipients, orderRecipients, type RecipientCheck } from './card-recipients.js';
import { cleanPersonalisation, type CartLine, type Personalisation } from './checkout-rules.js';
import { parseInput } from '../../core/input.js';
import { giftCardPersonalisationSchema, giftMembershipPersonalisationSchema } from '../../rules/schemas.js';
import { pricedProducts, type PricedProduct } from './priced-products.js';
import type { Locale } from '../../rules/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  unavailable: { id: 'error.checkout.productUnavailable', defaultMessage: 'Some products in your cart are no longer available; review your cart.' },
  notACard: { id: 'error.checkout.notACard', defaultMessage: '"{product}" is not a card and takes no personal message.' },
  groupCardOneRecipient: { id: 'error.checkout.groupCardOneRecipient', defaultMessage: 'A group card goes to one recipient: the whole group signs the one card.' },
});

/** An order made from the cart, before it is written (see draftOrder). */
export interface OrderDraft {
  quote: CartQuote<PricedProduct['product']>;
  items: NewOrderItem[];
  /** The group cards' requests, by the position of their item. */
  groupCards: Map<number, GroupCardRequest>;
  itemNames: string;
}

/**
 * Reads the lines' products (with their card designs), checks every line and every recipient,
 * prices the order and makes its items, named in the language it is bought in; writes nothing.
 */
export async function draftOrder(tx: RequestContext, args: { lines: CartLine[]; now: Date; benefits?: PricingBenefits | null; locale?: Locale }, recipientChecks: readonly RecipientCheck[]): Promise<OrderDraft> {
  const { lines, now } = args;
  const products = await pricedProducts(tx.em, lines.map((line) => line.productId), now, args.locale);
  if (lines.some((line) => !products.has(line.productId))) {
    throw new AppError('PRODUCT_UNAVAILABLE', refusals.unavailable, { field: 'lines' });
  }
  const isGift = (line: CartLine) => products.get(line.productId)!.isGiftCard || products.get(line.productId)!.isGiftMembership;
  const personalisations = lines.map((line, index) => (isGift(line) ? null : checkLine(line, `lines.${index}`, products.get(line.productId)!, now)));
  // A gift card line needs its amount and whom it goes to; a gift membership line its plan and whom it goes to.
  const giftCards = lines.map((line, index) => (products.get(line.productId)!.isGiftCard ? parseInput(giftCardPersonalisationSchema, line.personalisation, `lines.${index}.personalisation`) : null));
  const giftMemberships = lines.map((line, index) => (products.get(line.productId)!.isGiftMembership ? parseInput(giftMembershipPersonalisationSchema, line.personalisation, `lines.${index}.personalisation`) : null));
  // A gift's recipient goes through the same checks as a card's (an address that said no gets neither).
  const giftRecipients = lines.flatMap((_, index) => {
    const gift = giftCards[index] ?? giftMemberships[index];
    return gift ? [{ name: gift.recipientName, email: gift.recipientEmail, field: `lines.${index}.personalisation.recipientEmail` }] : [];
  });
  await checkRecipients(tx, [...orderRecipients(lines, personalisations), ...giftRecipients], recipientChecks);
  // A card line is priced for its recipients: one card each.
  const quote = priceLines(lines.map((line, index) => ({ ...line, quantity: personalisations[index]?.recipients.length ?? line.quantity })), products, args.benefits ?? null);
  // Every item of the order: a card line makes one item per recipient (card-recipients.ts), any
  // other line one item of its quantity.
  let position = 0;
  const items: NewOrderItem[] = [];
  const groupCards = new Map<number, GroupCardRequest>();
  for (const line of quote.lines) {
    const { product, card: design } = products.get(line.product.id)!;
    const personal = personalisations[line.index];
    // What the line was compared with when sold, and the sale that priced it (the receipt's saving, Sales per sale).
    // A membership's price is compared with the price without it (the receipt says what was saved).
    const sold = { compareAtPrice: line.regularUnitPrice ?? product.compareAtPrice, saleId: product.saleId, saleName: product.saleName };
    const gift = giftCards[line.index];
    const giftMembership = giftMemberships[line.index];
    const rows: NewOrderItem[] = personal && design
      ? cardItems({ product, design, price: line.unitPrice, sold, personal, position })
      : gift
        ? [{ position, productId: product.id, name: product.name, price: line.unitPrice, quantity: 1, recipientName: gift.recipientName, recipientEmail: gift.recipientEmail, senderName: gift.senderName, message: gift.message || null, giftCard: true }]
        : giftMembership && line.giftPlan
          ? [{ position, productId: product.id, name: `${product.name}: ${line.giftPlan.name}`, price: line.unitPrice, quantity: 1, recipientName: giftMembership.recipientName, recipientEmail: giftMembership.recipientEmail, senderName: giftMembership.senderName, message: giftMembership.message || null, giftMembershipPlanId: line.giftPlan.id }]
          : [{ position, productId: product.id, name: product.name, price: line.unitPrice, ...sold, quantity: line.quantity }];
    items.push(...rows);
    if (personal?.groupCard) groupCards.set(position, personal.groupCard);
    position += rows.length;
  }
  // Each product's name once, in English and as sold: what the admin's order search needs.
  const itemNames = [...new Set(lines.flatMap(({ productId }) => [products.get(productId)!.product.englishName, products.get(productId)!.product.name].map((name) => name.toLowerCase())))].join(' ');
  return { quote, items, groupCards, itemNames };
}

/**
 * A card line needs its personalisation (one card per recipient; a group card is one card); other
 * lines must not carry one. `field` names the line in errors (`lines.0`; empty for a line of its own,
 * as a preview sends it).
 */
export function checkLine(line: CartLine, field: string, { isCard, product }: PricedProduct, now: Date): (Personalisation & { groupCard: GroupCardRequest | null }) | null {
  const under = (name: string) => (field ? `${field}.${name}` : name);
  if (!isCard) {
    if (line.personalisation) throw badInput(said(refusals.notACard, { product: product.name }), under('personalisation'));
    return null;
  }
  const personal = cleanPersonalisation(line.personalisation, under('personalisation'), now);
  cardQuantity(line, personal, field);
  const groupCard = groupCardRequest(line.personalisation, personal.deliverAt, now, under('personalisation'));
  if (groupCard && personal.recipients.length !== 1) throw badInput(refusals.groupCardOneRecipient, under('personalisation.recipients'));
  return { ...personal, deliverAt: groupCard?.deliverAt ?? personal.deliverAt, groupCard };
}
