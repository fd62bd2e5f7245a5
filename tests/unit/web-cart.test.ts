import { describe, expect, it } from 'vitest';
import { addLine, dropProducts, itemCount, parseCart, removeLine, setQuantity, toLineInputs, type CartLine } from '../../web/src/storefront/cart/cart-lines';
import { checkoutKey, formatCardNumber, formatExpiry } from '../../web/src/storefront/checkout/card-input';
import { validatePersonalisation } from '../../web/src/storefront/product/personalisation-rules';

const card = (id: string, productId = 1): CartLine => ({
  id,
  productId,
  name: 'Balloon Birthday',
  quantity: 1,
  personalisation: { recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Hi', deliveryDate: null, timeZone: 'UTC' },
});
const album = (id: string, quantity = 1): CartLine => ({ id, productId: 2, name: 'Album', quantity, personalisation: null });

describe('the cart lines', () => {
  it('adds cards as lines of their own and counts the same album up', () => {
    let lines = addLine([], card('a'));
    lines = addLine(lines, card('b'));
    lines = addLine(lines, album('c'));
    lines = addLine(lines, album('d', 2));
    expect(lines.map((l) => [l.id, l.quantity])).toEqual([['a', 1], ['b', 1], ['c', 3]]);
    expect(itemCount(lines)).toBe(5);
  });

  it('changes quantities within 1..99 and never for a card', () => {
    const lines = [card('a'), album('b')];
    expect(setQuantity(lines, 'b', 250)[1]!.quantity).toBe(99);
    expect(setQuantity(lines, 'b', 0)[1]!.quantity).toBe(1);
    expect(setQuantity(lines, 'a', 3)[0]!.quantity).toBe(1);
    expect(removeLine(lines, 'a').map((l) => l.id)).toEqual(['b']);
  });

  it('drops the lines of products that are gone and says which', () => {
    expect(dropProducts([card('a', 1), album('b')], [1])).toEqual({ lines: [album('b')], dropped: ['Balloon Birthday'] });
  });

  it('reads back what it stored, and nothing it cannot trust', () => {
    const lines = [card('a'), album('b', 2)];
    expect(parseCart(JSON.stringify(lines))).toEqual(lines);
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart(JSON.stringify({ a: 1 }))).toEqual([]);
    expect(parseCart(JSON.stringify([{ id: 'x', productId: -1 }, { id: 'y', productId: 3, quantity: 1000, price: '0.01' }]))).toEqual([
      { id: 'y', productId: 3, name: '', quantity: 99, personalisation: null },
    ]);
  });

  it('sends products, quantities and personalisation but never a price', () => {
    const inputs = toLineInputs([card('a'), album('b')]);
    expect(inputs[1]).toEqual({ productId: 2, quantity: 1, personalisation: null });
    expect(JSON.stringify(inputs)).not.toMatch(/price/i);
  });
});

describe('the personalisation form', () => {
  const today = new Date(2026, 10, 23, 15, 0);
  const valid = { recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Hi', deliveryDate: null, timeZone: 'UTC' };
  it('asks for names and a valid e-mail, and keeps the message within 500 characters', () => {
    expect(validatePersonalisation(valid, today)).toEqual({});
    expect(Object.keys(validatePersonalisation({ ...valid, recipientName: ' ', recipientEmail: 'grace', senderName: '' }, today))).toEqual(['recipientName', 'recipientEmail', 'senderName']);
    expect(validatePersonalisation({ ...valid, message: 'x'.repeat(500) }, today)).toEqual({});
    expect(validatePersonalisation({ ...valid, message: 'x'.repeat(501) }, today).message).toBe('At most 500 characters.');
  });
  it('takes now, or a later day within a year', () => {
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-24' }, today)).toEqual({});
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-23' }, today).deliveryDate).toBeDefined();
    expect(validatePersonalisation({ ...valid, deliveryDate: '2027-11-24' }, today).deliveryDate).toBeDefined();
  });
});

describe('the card inputs', () => {
  it('groups the card number in fours and writes the expiry as MM/YY', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42a')).toBe('4242 42');
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12/', '12/3')).toBe('12/');
    expect(formatExpiry('12', '12/')).toBe('1');
  });

  it('keeps one idempotency key per cart until the cart changes', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const first = checkoutKey(storage, 'cart-1');
    expect(checkoutKey(storage, 'cart-1')).toBe(first);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(checkoutKey(storage, 'cart-2')).not.toBe(first);
  });
});
