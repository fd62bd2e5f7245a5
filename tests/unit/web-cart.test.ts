import { describe, expect, it } from 'vitest';
import { addLine, dropProducts, itemCount, parseCart, removeLine, setQuantity, toLineInputs, toQuoteInputs, type CartLine } from '../../web/src/storefront/cart/cart-lines';
import { giftCardAmount, giftCardErrors } from '../../web/src/storefront/product/GiftCardForm';
import { checkoutKey, formatCardNumber, formatExpiry } from '../../web/src/storefront/checkout/card-input';
import { validatePersonalisation } from '../../web/src/storefront/product/personalisation-rules';

const card = (id: string, productId = 1): CartLine => ({
  id,
  productId,
  name: 'Balloon Birthday',
  quantity: 1,
  personalisation: { recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Ada', message: 'Hi', deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' },
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

  it('counts a card line by its recipients and sends them as a list, the hour only with a day', () => {
    const three: CartLine = { ...card('m'), personalisation: { ...card('m').personalisation!, recipients: [{ name: 'A', email: 'a@example.com', contactId: 4 }, { name: 'B', email: 'b@example.com' }, { name: 'C', email: 'c@example.com' }], deliveryDate: '2026-12-24', deliveryTime: '18:00' } };
    const [input] = toLineInputs([three]);
    expect(input).toEqual({
      productId: 1,
      quantity: 3,
      personalisation: { recipients: [{ name: 'A', email: 'a@example.com' }, { name: 'B', email: 'b@example.com' }, { name: 'C', email: 'c@example.com' }], senderName: 'Ada', message: 'Hi', deliveryDate: '2026-12-24', deliveryTime: '18:00', timeZone: 'UTC' },
    });
    expect((toLineInputs([card('n')])[0]!.personalisation as { deliveryTime: string | null }).deliveryTime).toBeNull();
    // A stored line's quantity is its recipients, whatever the storage says.
    expect(parseCart(JSON.stringify([{ ...three, quantity: 1 }]))[0]!.quantity).toBe(3);
  });

  it('keeps a gift card as a line of one, sends its amount to be priced and its recipient to be ordered', () => {
    const giftCard = { amount: '25.00', recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: '' };
    const gift: CartLine = { id: 'g', productId: 9, name: 'Gift Card', quantity: 1, personalisation: null, giftCard };
    const lines = addLine(addLine([], gift), { ...gift, id: 'h' });
    expect(lines.map((line) => line.id)).toEqual(['g', 'h']);
    expect(setQuantity(lines, 'g', 3)[0]!.quantity).toBe(1);
    expect(parseCart(JSON.stringify([{ ...gift, quantity: 4 }]))).toEqual([gift]);
    // A stored gift card missing a part is no line at all.
    expect(parseCart(JSON.stringify([{ ...gift, giftCard: { ...giftCard, recipientEmail: undefined } }]))[0]!.giftCard).toBeUndefined();
    expect(toQuoteInputs([gift, album('a', 2)])).toEqual([{ productId: 9, quantity: 1, personalisation: { amount: '25.00', senderName: 'Ada', message: '' } }, { productId: 2, quantity: 2 }]);
    expect(toLineInputs([gift])).toEqual([{ productId: 9, quantity: 1, personalisation: { amount: '25.00', recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: '' } }]);
  });

  it("checks a gift card's amount (10 to 500, cents at most) and its recipient as the shop does", () => {
    expect(['10', '$25.5', '500', '99.99'].map(giftCardAmount)).toEqual(['10.00', '25.50', '500.00', '99.99']);
    expect(['9.99', '500.01', '12.345', 'ten', ''].map(giftCardAmount)).toEqual([null, null, null, null, null]);
    expect(giftCardErrors({ amount: '5', recipientName: ' ', recipientEmail: 'nope', senderName: 'Ada', message: '' })).toEqual({
      amount: 'Choose an amount from $10 to $500.',
      recipientName: "Enter the recipient's name.",
      recipientEmail: "Enter the recipient's e-mail address.",
    });
    expect(giftCardErrors({ amount: '50', recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Hi' })).toEqual({});
  });

  it('reads a cart stored before cards had several recipients', () => {
    const old = [{ id: 'o', productId: 1, name: 'Card', quantity: 1, personalisation: { recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Hi', deliveryDate: '2026-12-24', timeZone: 'UTC' } }];
    expect(parseCart(JSON.stringify(old))[0]!.personalisation).toEqual({ recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Ada', message: 'Hi', deliveryDate: '2026-12-24', deliveryTime: '09:00', timeZone: 'UTC' });
  });
});

describe('the personalisation form', () => {
  const today = new Date(2026, 10, 23, 15, 0);
  const valid = { recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Ada', message: 'Hi', deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' };
  it('asks for names and a valid e-mail, and keeps the message within 500 characters', () => {
    expect(validatePersonalisation(valid, today)).toEqual({});
    expect(Object.keys(validatePersonalisation({ ...valid, recipients: [{ name: ' ', email: 'grace' }], senderName: '' }, today))).toEqual(['recipients.0.name', 'recipients.0.email', 'senderName']);
    expect(validatePersonalisation({ ...valid, message: 'x'.repeat(500) }, today)).toEqual({});
    expect(validatePersonalisation({ ...valid, message: 'x'.repeat(501) }, today).message).toBe('At most 500 characters.');
  });
  it('checks every recipient, each address once, 100 at most', () => {
    const recipients = [{ name: 'A', email: 'a@example.com' }, { name: 'B', email: 'nope' }, { name: 'A again', email: 'A@example.com' }];
    expect(validatePersonalisation({ ...valid, recipients }, today)).toEqual({ 'recipients.1.email': "Enter the recipient's e-mail address.", 'recipients.2.email': 'This address is already a recipient of this card.' });
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `R${i}`, email: `r${i}@example.com` }));
    expect(validatePersonalisation({ ...valid, recipients: many }, today).recipients).toMatch(/at most 100/);
    expect(validatePersonalisation({ ...valid, recipients: many.slice(0, 100) }, today)).toEqual({});
  });
  it('takes now, a later day within a year at an hour, or today at a later hour', () => {
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-24' }, today)).toEqual({});
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-23', deliveryTime: '18:00' }, today)).toEqual({});
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-23', deliveryTime: '15:00' }, today).deliveryTime).toBe('Choose a later hour today, or send it now.');
    expect(validatePersonalisation({ ...valid, deliveryDate: '2026-11-22' }, today).deliveryDate).toBeDefined();
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
