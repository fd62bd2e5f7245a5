import { pageIntl } from '../../i18n/page-intl';

/** Card number as typed, in groups of four ("4242 4242 4242 4242"), digits only, at most 19. */
export function formatCardNumber(text: string): string {
  return text.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiry as typed: "1" → "1", "12" → "12/", "1230" → "12/30". */
export function formatExpiry(text: string, previous = ''): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  // Deleting the slash deletes the month's last digit too, so backspace never sticks.
  if (text.length < previous.length && previous.endsWith('/') && !text.includes('/')) return digits.slice(0, 1);
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/**
 * The idempotency key of a checkout: one per cart and purchaser, kept for the tab's life, so that a
 * double click, a retry after a network error or a reload sends the same key and the shop makes one
 * order. A different cart gets a new key.
 */
export function checkoutKey(storage: Pick<Storage, 'getItem' | 'setItem'>, signature: string): string {
  const stored = storage.getItem('checkout');
  try {
    const parsed = stored ? (JSON.parse(stored) as { signature?: string; key?: string }) : null;
    if (parsed?.signature === signature && parsed.key) return parsed.key;
  } catch {
    // a damaged entry is replaced
  }
  const key = crypto.randomUUID();
  storage.setItem('checkout', JSON.stringify({ signature, key }));
  return key;
}

/** A card as typed into the shop's card form (the payment page, the membership page). */
export interface TypedCard {
  number: string;
  expiry: string;
  cvc: string;
  holder: string;
}

export const NO_CARD: TypedCard = { number: '', expiry: '', cvc: '', holder: '' };

/** The card's fields as the shop names them in its errors (`extensions.field`). */
export type CardField = 'payment.cardNumber' | 'payment.expiry' | 'payment.cvc';
export const CARD_FIELDS: readonly string[] = ['payment.cardNumber', 'payment.expiry', 'payment.cvc'] satisfies CardField[];

/** What is plainly missing from a typed card, by field, before the shop is asked (it checks the card again). */
export function cardProblems(card: TypedCard): Partial<Record<CardField, string>> {
  const intl = pageIntl();
  const found: Partial<Record<CardField, string>> = {};
  if (card.number.replace(/\D/g, '').length < 12) found['payment.cardNumber'] = intl.formatMessage({ id: 'checkout.card.numberMissing', defaultMessage: 'Enter the card number.' });
  if (!/^\d{2}\/\d{2}$/.test(card.expiry)) found['payment.expiry'] = intl.formatMessage({ id: 'checkout.card.expiryFormat', defaultMessage: 'MM/YY' });
  if (!/^\d{3,4}$/.test(card.cvc)) found['payment.cvc'] = intl.formatMessage({ id: 'checkout.card.cvcFormat', defaultMessage: '3 or 4 digits' });
  return found;
}

/** A typed card as the shop's `payment` input takes it. */
export const cardPayment = (card: TypedCard) => ({ cardNumber: card.number, expiry: card.expiry, cvc: card.cvc, cardholderName: card.holder.trim() || null });
