/**
 * The cart as the browser keeps it: which products, how many, and for a card whom it goes to. It
 * holds no prices — the shop prices every line itself (the `cartQuote` query) each time it is shown.
 */

export { MAX_QUANTITY } from '@rules';
import { MAX_QUANTITY } from '@rules';

export interface CardPersonalisation {
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string;
  /** YYYY-MM-DD, or null to send at once. */
  deliveryDate: string | null;
  timeZone: string;
  /** A group card: signed by others through its link until `collectUntil` (ISO 8601). */
  groupCard?: GroupCardChoice | null;
}

export interface GroupCardChoice {
  collectUntil: string;
}

export interface CartLine {
  /** The line's own id in this browser. */
  id: string;
  productId: number;
  /** Only for telling the shopper which line went away; never shown as a price or used to price. */
  name: string;
  quantity: number;
  personalisation: CardPersonalisation | null;
}

const isText = (value: unknown): value is string => typeof value === 'string';

function readPersonalisation(value: unknown): CardPersonalisation | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  if (![p.recipientName, p.recipientEmail, p.senderName, p.message, p.timeZone].every(isText)) return null;
  return {
    recipientName: p.recipientName as string,
    recipientEmail: p.recipientEmail as string,
    senderName: p.senderName as string,
    message: p.message as string,
    deliveryDate: isText(p.deliveryDate) ? p.deliveryDate : null,
    timeZone: p.timeZone as string,
    ...readGroupCard(p.groupCard),
  };
}

/** A group card's choice as stored (only when it is one). */
function readGroupCard(value: unknown): { groupCard?: GroupCardChoice } {
  const collectUntil = value && typeof value === 'object' ? (value as Record<string, unknown>).collectUntil : undefined;
  return isText(collectUntil) && !Number.isNaN(Date.parse(collectUntil)) ? { groupCard: { collectUntil } } : {};
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
    const quantity = Number.isInteger(line.quantity) ? Math.min(Math.max(line.quantity as number, 1), MAX_QUANTITY) : 1;
    return [{ id: line.id, productId: line.productId as number, name: isText(line.name) ? line.name : '', quantity, personalisation: readPersonalisation(line.personalisation) }];
  });
}

/** Adds a line; a product without personalisation that is already in the cart gets one more instead. */
export function addLine(lines: CartLine[], line: CartLine): CartLine[] {
  const same = line.personalisation ? undefined : lines.find((l) => l.productId === line.productId && !l.personalisation);
  if (same) return lines.map((l) => (l === same ? { ...l, quantity: Math.min(l.quantity + line.quantity, MAX_QUANTITY) } : l));
  return [...lines, line];
}

export function setQuantity(lines: CartLine[], id: string, quantity: number): CartLine[] {
  const clamped = Math.min(Math.max(Math.round(quantity) || 1, 1), MAX_QUANTITY);
  return lines.map((l) => (l.id === id && !l.personalisation ? { ...l, quantity: clamped } : l));
}

export function replacePersonalisation(lines: CartLine[], id: string, personalisation: CardPersonalisation): CartLine[] {
  return lines.map((l) => (l.id === id ? { ...l, personalisation } : l));
}

export const removeLine = (lines: CartLine[], id: string): CartLine[] => lines.filter((l) => l.id !== id);

/** Drops the lines of products the shop no longer has; returns the lines kept and the names dropped. */
export function dropProducts(lines: CartLine[], productIds: number[]): { lines: CartLine[]; dropped: string[] } {
  const gone = new Set(productIds);
  return { lines: lines.filter((l) => !gone.has(l.productId)), dropped: lines.filter((l) => gone.has(l.productId)).map((l) => l.name || 'A product') };
}

export const itemCount = (lines: CartLine[]) => lines.reduce((count, line) => count + line.quantity, 0);

/** The lines as the `cartQuote` and `placeOrder` operations take them. */
export const toLineInputs = (lines: CartLine[]) =>
  lines.map((line) => ({ productId: line.productId, quantity: line.quantity, personalisation: line.personalisation }));
