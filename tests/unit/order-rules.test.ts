import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/src/core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../server/src/core/money.js';
import { cleanCard, cleanCartLines, cleanIdempotencyKey, cleanPersonalisation, dayIn, startOfDay } from '../../server/src/modules/checkout/checkout-rules.js';

const fieldOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error.field;
    throw error;
  }
  return 'no error';
};

describe('money', () => {
  it('adds and multiplies exactly in cents', () => {
    expect(sum(['0.10', '0.20'])).toBe('0.30');
    expect(multiply('19.99', 3)).toBe('59.97');
    expect(toCents('5')).toBe(500);
    expect(toCents('5.5')).toBe(550);
    expect(fromCents(7)).toBe('0.07');
    expect(sum([])).toBe('0.00');
    expect(() => toCents('1.234')).toThrow();
  });
});

describe('delivery days', () => {
  it('finds the start of a day in a time zone, across daylight-saving changes', () => {
    expect(startOfDay('2026-12-24', 'America/New_York').toISOString()).toBe('2026-12-24T05:00:00.000Z');
    expect(startOfDay('2026-07-04', 'America/New_York').toISOString()).toBe('2026-07-04T04:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-12-25', 'Asia/Tokyo').toISOString()).toBe('2026-12-24T15:00:00.000Z');
    expect(startOfDay('2026-12-25', 'UTC').toISOString()).toBe('2026-12-25T00:00:00.000Z');
  });

  it('knows which day it is where the shopper is', () => {
    const now = new Date('2026-12-01T02:00:00Z');
    expect(dayIn(now, 'UTC')).toBe('2026-12-01');
    expect(dayIn(now, 'America/Los_Angeles')).toBe('2026-11-30');
  });

  const base = { recipientName: 'Grace', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Hi' };
  const now = new Date('2026-12-01T02:00:00Z');

  it('sends now without a date or for today, at 09:00 of a later day (or the hour chosen) otherwise', () => {
    expect(cleanPersonalisation(base, 'p', now).deliverAt).toEqual(now);
    expect(cleanPersonalisation({ ...base, deliveryDate: '2026-11-30', timeZone: 'America/Los_Angeles' }, 'p', now).deliverAt).toEqual(now);
    expect(cleanPersonalisation({ ...base, deliveryDate: '2026-12-02' }, 'p', now).deliverAt.toISOString()).toBe('2026-12-02T09:00:00.000Z');
    expect(cleanPersonalisation({ ...base, deliveryDate: '2026-12-02', deliveryTime: '00:00' }, 'p', now).deliverAt.toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(cleanPersonalisation({ ...base, deliveryDate: '2026-11-30', deliveryTime: '21:00', timeZone: 'America/Los_Angeles' }, 'p', now).deliverAt.toISOString()).toBe('2026-12-01T05:00:00.000Z');
  });

  it('refuses past days, impossible days and days more than a year ahead', () => {
    expect(fieldOf(() => cleanPersonalisation({ ...base, deliveryDate: '2026-11-30' }, 'p', now))).toBe('p.deliveryDate');
    expect(fieldOf(() => cleanPersonalisation({ ...base, deliveryDate: '2026-11-31' }, 'p', now))).toBe('p.deliveryDate');
    expect(fieldOf(() => cleanPersonalisation({ ...base, deliveryDate: '24/12/2026' }, 'p', now))).toBe('p.deliveryDate');
    expect(fieldOf(() => cleanPersonalisation({ ...base, deliveryDate: '2027-12-31' }, 'p', now))).toBe('p.deliveryDate');
    expect(fieldOf(() => cleanPersonalisation({ ...base, deliveryDate: '2027-11-30' }, 'p', now))).toBe('no error');
  });

  it('keeps the message with its line breaks, up to 500 characters', () => {
    expect(cleanPersonalisation({ ...base, message: '  Dear Grace,\nhappy day!  ' }, 'p', now).message).toBe('Dear Grace,\nhappy day!');
    expect(cleanPersonalisation({ ...base, message: '' }, 'p', now).message).toBe('');
    expect(fieldOf(() => cleanPersonalisation({ ...base, message: 'x'.repeat(501) }, 'p', now))).toBe('p.message');
    expect(fieldOf(() => cleanPersonalisation({ ...base, senderName: '' }, 'p', now))).toBe('p.senderName');
    expect(cleanPersonalisation({ ...base, recipientEmail: ' Grace@Example.COM ' }, 'p', now).recipientEmail).toBe('grace@example.com');
  });
});

describe('payments and carts', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const card = { cardNumber: '4242 4242 4242 4242', expiry: '11/26', cvc: '123' };

  it('reads a card: digits only, expiry this month or later, 3–4 digit code', () => {
    expect(cleanCard(card, now)).toEqual({ number: '4242424242424242', expiryMonth: 11, expiryYear: 2026, cvc: '123', holderName: null });
    expect(cleanCard({ ...card, expiry: '1/2030' }, now)).toMatchObject({ expiryMonth: 1, expiryYear: 2030 });
    expect(fieldOf(() => cleanCard({ ...card, expiry: '10/26' }, now))).toBe('payment.expiry');
    expect(fieldOf(() => cleanCard({ ...card, cardNumber: '4242 4242 4242 4243' }, now))).toBe('payment.cardNumber');
    expect(fieldOf(() => cleanCard({ ...card, cardNumber: '4242' }, now))).toBe('payment.cardNumber');
    expect(fieldOf(() => cleanCard({ ...card, cvc: 'abc' }, now))).toBe('payment.cvc');
  });

  it('reads the expiry by the clock of each call, across a month’s end (the check is made once a month)', () => {
    expect(cleanCard(card, new Date('2026-11-30T23:59:59Z'))).toMatchObject({ expiryMonth: 11 });
    expect(fieldOf(() => cleanCard(card, new Date('2026-12-01T00:00:00Z')))).toBe('payment.expiry');
    expect(cleanCard(card, new Date('2026-11-01T00:00:00Z'))).toMatchObject({ expiryMonth: 11 });
    expect(fieldOf(() => cleanCard(card, new Date('2027-01-15T00:00:00Z')))).toBe('payment.expiry');
  });

  it('reads cart lines and keys', () => {
    expect(cleanCartLines([{ productId: 3 }])).toEqual([{ productId: 3, quantity: 1, personalisation: null }]);
    expect(fieldOf(() => cleanCartLines([{ productId: 0 }]))).toBe('lines.0.productId');
    expect(fieldOf(() => cleanCartLines([{ productId: 1, quantity: 1.5 }]))).toBe('lines.0.quantity');
    expect(fieldOf(() => cleanCartLines(Array(51).fill({ productId: 1 })))).toBe('lines');
    expect(cleanIdempotencyKey('2f1c1b9e-8a55-4c43-9c0e-6d6f2a8b9e10')).toBe('2f1c1b9e-8a55-4c43-9c0e-6d6f2a8b9e10');
    expect(fieldOf(() => cleanIdempotencyKey('key with spaces and more'))).toBe('idempotencyKey');
  });
});
