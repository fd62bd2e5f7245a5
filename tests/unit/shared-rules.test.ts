import { describe, expect, it } from 'vitest';
import 'reflect-metadata';
import { classifyDeliveryDay, EMAIL_PATTERN, isEmail, latestDeliveryDay, MAX_DELIVERY_DAYS, orderNumber } from '../../server/src/rules/index.js';
import { deliveryInstant, emailSchema } from '../../server/src/rules/schemas.js';
import { slugFromTitle } from '../../server/src/rules/slug.js';
import { validatePersonalisation } from '../../web/src/storefront/product/personalisation-rules.js';
import { cleanEmail } from '../../server/src/core/input.js';
import { deliveryInstant as serverDeliveryInstant } from '../../server/src/modules/checkout/checkout-rules.js';
import { slugFrom } from '../../server/src/modules/blog/blog.service.js';

/** The rules the server and the web client share (server/src/rules, `@rules` on the web). */
describe('delivery days: now, or tomorrow up to a year ahead', () => {
  it('is a year of 365 days after today, leap years included', () => {
    expect(MAX_DELIVERY_DAYS).toBe(365);
    expect(latestDeliveryDay('2026-11-23')).toBe('2027-11-23');
    expect(latestDeliveryDay('2027-03-01')).toBe('2028-02-29');
  });

  it('classifies each side of both limits', () => {
    const today = '2026-11-23';
    expect(classifyDeliveryDay('2026-11-22', today)).toBe('past');
    expect(classifyDeliveryDay('2026-11-23', today)).toBe('today');
    expect(classifyDeliveryDay('2026-11-24', today)).toBe('later');
    expect(classifyDeliveryDay('2027-11-23', today)).toBe('later');
    expect(classifyDeliveryDay('2027-11-24', today)).toBe('too-far');
    expect(classifyDeliveryDay('2026-02-30', today)).toBe('not-a-day');
    expect(classifyDeliveryDay('23/11/2026', today)).toBe('not-a-day');
  });

  it('the server takes the last day (at 09:00 unless an hour is chosen) and refuses the one after; today is now', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(serverDeliveryInstant('2027-11-23', 'UTC', now)).toEqual(new Date('2027-11-23T09:00:00Z'));
    expect(serverDeliveryInstant('2027-11-23', 'UTC', now, '23:00')).toEqual(new Date('2027-11-23T23:00:00Z'));
    expect(serverDeliveryInstant('2026-11-23', 'UTC', now, '18:00')).toEqual(new Date('2026-11-23T18:00:00Z'));
    expect(() => serverDeliveryInstant('2027-11-24', 'UTC', now)).toThrow('The delivery date can be at most a year ahead.');
    expect(() => serverDeliveryInstant('2026-11-22', 'UTC', now)).toThrow('The delivery date cannot be in the past.');
    expect(serverDeliveryInstant('2026-11-23', 'UTC', now)).toEqual(now);
    expect(serverDeliveryInstant('2026-11-23', 'UTC', now, '11:00')).toEqual(now);
    expect(() => serverDeliveryInstant('2026-11-24', 'UTC', now, '9am')).toThrow('The delivery time must be an hour like 09:00.');
    expect(deliveryInstant(null, 'UTC', now)).toEqual(now);
  });

  it('the form takes the same last day and refuses the one after; today takes an hour still to come', () => {
    const today = new Date(2026, 10, 23, 15, 0);
    const card = { recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Ada', message: '', deliveryTime: '09:00', timeZone: 'UTC' };
    expect(validatePersonalisation({ ...card, deliveryDate: '2026-11-24' }, today)).toEqual({});
    expect(validatePersonalisation({ ...card, deliveryDate: '2027-11-23' }, today)).toEqual({});
    expect(validatePersonalisation({ ...card, deliveryDate: '2027-11-24' }, today).deliveryDate).toBe('Choose a day within a year.');
    expect(validatePersonalisation({ ...card, deliveryDate: '2026-11-23' }, today).deliveryTime).toBe('Choose a later hour today, or send it now.');
    expect(validatePersonalisation({ ...card, deliveryDate: '2026-11-23', deliveryTime: '16:00' }, today)).toEqual({});
  });
});

describe('the e-mail pattern', () => {
  it('takes one plain address, on both sides', () => {
    for (const good of ['ada@example.com', 'a.b+c@sub.example.co.uk', " o'neil@example.ie "]) {
      expect(isEmail(good), good).toBe(true);
      expect(emailSchema.safeParse(good).success, good).toBe(true);
    }
  });

  it('refuses lists, display names, missing dots and overlong addresses', () => {
    const long = `${'a'.repeat(243)}@example.com`;
    expect(long.length).toBe(255);
    for (const bad of ['ada', 'ada@example', 'a@b.com,c@d.com', 'Ada <ada@example.com>', 'a b@example.com', '"a"@example.com', 'a@-example.com', long]) {
      expect(isEmail(bad), bad).toBe(false);
      expect(() => cleanEmail(bad), bad).toThrow('Please enter a valid e-mail address.');
    }
    expect(isEmail(long.slice(1))).toBe(true);
    expect(EMAIL_PATTERN.test('ADA@EXAMPLE.COM')).toBe(true);
  });

  it('trims and lower-cases on the server, reporting the field', () => {
    expect(cleanEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    try {
      cleanEmail('nope', 'order.email');
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'order.email' });
    }
  });
});

describe('slugs', () => {
  it('one function makes the address from a title for the editor and for the server', () => {
    expect(slugFromTitle('Hello, World!')).toBe('hello-world');
    expect(slugFromTitle('  Crème brûlée & Co.  ')).toBe('creme-brulee-and-co');
    expect(slugFromTitle('a -- b')).toBe('a-b');
    expect(slugFromTitle('!!!')).toBe('');
    const long = slugFromTitle(`${'word '.repeat(30)}`);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith('-')).toBe(false);
    expect(slugFrom('Hello, World!')).toBe(slugFromTitle('Hello, World!'));
    expect(slugFrom('2026')).toBe('post-2026');
  });
});

describe("an order's number", () => {
  it('is the first eight characters of its id in capitals, the same in e-mails and on every page', () => {
    expect(orderNumber('6f1c2b3a-9d4e-4f00-8a1b-2c3d4e5f6a7b')).toBe('6F1C2B3A');
    expect(orderNumber('476a81e3-9140-431a-b085-133c236e13a0')).toBe('476A81E3');
  });
});
