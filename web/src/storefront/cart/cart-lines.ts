/**
 * The cart as the browser keeps it: which products, how many, and for a card whom it goes to. It
 * holds no prices — the shop prices every line itself (the `cartQuote` query) each time it is shown.
 */

export { MAX_QUANTITY } from '@rules';
import { MAX_QUANTITY, MAX_RECIPIENTS_PER_LINE } from '@rules';
import { pageIntl } from '../../i18n/page-intl';

/** One recipient of a card line: each gets their own card. */
export interface CardRecipient {
  name: string;
  email: string;
  /** The address book contact they came from, if any (only for the form). */
  contactId?: number;
}

export interface CardPersonalisation {
  /** One or more (up to 100): each gets their own card, `{name}` in the message becoming their name. */
  recipients: CardRecipient[];
  senderName: string;
  message: string;
  /** YYYY-MM-DD, or null to send at once. */
  deliveryDate: string | null;
  /** HH:MM on deliveryDate (09:00 unless chosen). */
  deliveryTime: string;
  timeZone: string;
  /** A group card: signed by others through its link until `collectUntil` (ISO 8601). */
  groupCard?: GroupCardChoice | null;
}

export interface GroupCardChoice {
  collectUntil: string;
}

/** A gift card line: the amount it holds and whom it goes to (it is e-mailed once the order is paid). */
export interface GiftCardChoice {
  /** The amount, "50.00" (10 to 500). */
  amount: string;
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string;
}

/** A gift membership line: the plan whose period it gives and whom it goes to (its code is e-mailed once the order is paid). */
export interface GiftMembershipChoice {
  planId: number;
  /** The plan's name when it was chosen (for the cart's line; the shop prices the plan itself). */
  planName: string;
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string;
}

export interface CartLine {
  /** The line's own id in this browser. */
  id: string;
  productId: number;
  /** Only for telling the shopper which line went away; never shown as a price or used to price. */
  name: string;
  /** Copies of a product; for a card, its number of recipients (one card each). */
  quantity: number;
  personalisation: CardPersonalisation | null;
  /** A gift card: always one a line. */
  giftCard?: GiftCardChoice | null;
  /** A gift membership: always one a line. */
  giftMembership?: GiftMembershipChoice | null;
}

const isText = (value: unknown): value is string => typeof value === 'string';

function readRecipients(p: Record<string, unknown>): CardRecipient[] | null {
  // A cart stored before cards had several recipients names one.
  const raw = Array.isArray(p.recipients) ? p.recipients : [{ name: p.recipientName, email: p.recipientEmail }];
  const recipients = raw.flatMap((r): CardRecipient[] => (r && typeof r === 'object' && isText(r.name) && isText(r.email) ? [{ name: r.name, email: r.email, ...(Number.isSafeInteger(r.contactId) ? { contactId: r.contactId as number } : {}) }] : []));
  return recipients.length && recipients.length === raw.length && recipients.length <= MAX_RECIPIENTS_PER_LINE ? recipients : null;
}

function readPersonalisation(value: unknown): CardPersonalisation | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  const recipients = readRecipients(p);
  if (!recipients || ![p.senderName, p.message, p.timeZone].every(isText)) return null;
  return {
    recipients,
    senderName: p.senderName as string,
    message: p.message as string,
    deliveryDate: isText(p.deliveryDate) ? p.deliveryDate : null,
    deliveryTime: isText(p.deliveryTime) && /^\d{2}:\d{2}$/.test(p.deliveryTime) ? p.deliveryTime : '09:00',
    timeZone: p.timeZone as string,
    ...readGroupCard(p.groupCard),
  };
}

/** A group card's choice as stored (only when it is one). */
function readGroupCard(value: unknown): { groupCard?: GroupCardChoice } {
  const collectUntil = value && typeof value === 'object' ? (value as Record<string, unknown>).collectUntil : undefined;
  return isText(collectUntil) && !Number.isNaN(Date.parse(collectUntil)) ? { groupCard: { collectUntil } } : {};
}

/** A gift card line's choice as stored (only a whole one). */
function readGiftCard(value: unknown): GiftCardChoice | null {
  if (!value || typeof value !== 'object') return null;
  const g = value as Record<string, unknown>;
  if (![g.amount, g.recipientName, g.recipientEmail, g.senderName, g.message].every(isText)) return null;
  return { amount: g.amount as string, recipientName: g.recipientName as string, recipientEmail: g.recipientEmail as string, senderName: g.senderName as string, message: g.message as string };
}

/** A gift membership line's choice as stored (only a whole one). */
function readGiftMembership(value: unknown): GiftMembershipChoice | null {
  if (!value || typeof value !== 'object') return null;
  const g = value as Record<string, unknown>;
  if (!Number.isSafeInteger(g.planId) || ![g.planName, g.recipientName, g.recipientEmail, g.senderName, g.message].every(isText)) return null;
  return { planId: g.planId as number, planName: g.planName as string, recipientName: g.recipientName as string, recipientEmail: g.recipientEmail as string, senderName: g.senderName as string, message: g.message as string };
}

/** The stored cart, keeping only well-formed lines (the storage may hold anything). */
export function parseCart(json: string | null): CartLine[] {
  if (!json) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): CartLine[] => {
    if (!raw || typeof raw !== 'object') return [];
    const line = raw as Record<string, unknown>;
    if (!isText(line.id) || !Number.isSafeInteger(line.productId) || (line.productId as number) <= 0) return [];
    const name = isText(line.name) ? line.name : '';
    const giftCard = readGiftCard(line.giftCard);
    if (giftCard) return [{ id: line.id, productId: line.productId as number, name, quantity: 1, personalisation: null, giftCard }];
    const giftMembership = readGiftMembership(line.giftMembership);
    if (giftMembership) return [{ id: line.id, productId: line.productId as number, name, quantity: 1, personalisation: null, giftMembership }];
    const personalisation = readPersonalisation(line.personalisation);
    const quantity = personalisation ? personalisation.recipients.length : Number.isInteger(line.quantity) ? Math.min(Math.max(line.quantity as number, 1), MAX_QUANTITY) : 1;
    return [{ id: line.id, productId: line.productId as number, name, quantity, personalisation }];
  });
}

/** A card, a gift card or a gift membership: a line of its own whose quantity is not typed. */
const isOwnLine = (line: CartLine) => Boolean(line.personalisation || line.giftCard || line.giftMembership);

/** Adds a line; a product without personalisation that is already in the cart gets one more instead. */
export function addLine(lines: CartLine[], line: CartLine): CartLine[] {
  // A card or a present is a line of its own; another copy of a product joins its line.
  const same = isOwnLine(line) ? undefined : lines.find((l) => l.productId === line.productId && !isOwnLine(l));
  if (same) return lines.map((l) => (l === same ? { ...l, quantity: Math.min(l.quantity + line.quantity, MAX_QUANTITY) } : l));
  return [...lines, line];
}

export function setQuantity(lines: CartLine[], id: string, quantity: number): CartLine[] {
  const clamped = Math.min(Math.max(Math.round(quantity) || 1, 1), MAX_QUANTITY);
  return lines.map((l) => (l.id === id && !isOwnLine(l) ? { ...l, quantity: clamped } : l));
}

export function replacePersonalisation(lines: CartLine[], id: string, personalisation: CardPersonalisation): CartLine[] {
  return lines.map((l) => (l.id === id ? { ...l, personalisation, quantity: personalisation.recipients.length } : l));
}

export const removeLine = (lines: CartLine[], id: string): CartLine[] => lines.filter((l) => l.id !== id);

/** Drops the lines of products the shop no longer has; returns the lines kept and the names dropped. */
export function dropProducts(lines: CartLine[], productIds: number[]): { lines: CartLine[]; dropped: string[] } {
  const gone = new Set(productIds);
  return { lines: lines.filter((l) => !gone.has(l.productId)), dropped: lines.filter((l) => gone.has(l.productId)).map((l) => l.name || pageIntl().formatMessage({ id: 'cart.droppedProduct', defaultMessage: 'A product' })) };
}

export const itemCount = (lines: CartLine[]) => lines.reduce((count, line) => count + line.quantity, 0);

/** The lines as the `cartQuote` and `placeOrder` operations take them (a card's recipients as `recipients`, one card each). */
export const toLineInputs = (lines: CartLine[]) =>
  lines.map((line) => {
    const p = line.personalisation;
    if (line.giftCard) return { productId: line.productId, quantity: 1, personalisation: toGiftCardInput(line.giftCard) };
    if (line.giftMembership) return { productId: line.productId, quantity: 1, personalisation: toGiftMembershipInput(line.giftMembership) };
    if (!p) return { productId: line.productId, quantity: line.quantity, personalisation: null };
    return { productId: line.productId, quantity: p.recipients.length, personalisation: toPersonalisationInput(p) };
  });

/**
 * The lines as `cartQuote` prices them: products and quantities (a card's price does not depend on
 * whom it goes to), and a gift card's amount.
 */
export const toQuoteInputs = (lines: CartLine[]) =>
  lines.map((line) =>
    line.giftCard
      ? { productId: line.productId, quantity: 1, personalisation: { amount: line.giftCard.amount, senderName: line.giftCard.senderName, message: line.giftCard.message } }
      : line.giftMembership
        ? { productId: line.productId, quantity: 1, personalisation: { planId: line.giftMembership.planId, senderName: line.giftMembership.senderName, message: line.giftMembership.message } }
        : { productId: line.productId, quantity: line.quantity },
  );

/** A gift card line as `cartQuote` and `placeOrder` take it: the amount and its recipient in the personalisation. */
const toGiftCardInput = (g: GiftCardChoice) => ({ amount: g.amount, recipientName: g.recipientName, recipientEmail: g.recipientEmail, senderName: g.senderName, message: g.message });

/** A gift membership line as `cartQuote` and `placeOrder` take it: the plan and its recipient in the personalisation. */
const toGiftMembershipInput = (g: GiftMembershipChoice) => ({ planId: g.planId, recipientName: g.recipientName, recipientEmail: g.recipientEmail, senderName: g.senderName, message: g.message });

/** A card's personalisation as `placeOrder` (and the preview, `POST /api/ecards/preview`) takes it. */
export const toPersonalisationInput = (p: CardPersonalisation) => ({
  recipients: p.recipients.map(({ name, email }) => ({ name, email })),
  senderName: p.senderName,
  message: p.message,
  deliveryDate: p.deliveryDate,
  deliveryTime: p.deliveryDate ? p.deliveryTime : null,
  timeZone: p.timeZone,
  ...(p.groupCard ? { groupCard: { collectUntil: p.groupCard.collectUntil } } : {}),
});
