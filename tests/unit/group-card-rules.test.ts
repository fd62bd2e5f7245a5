import { describe, expect, it } from 'vitest';
import { collectUntilProblem, MAX_SIGNATURES } from '../../server/src/rules/index.js';
import { linesOf, pageLayout, paginate } from '../../server/src/modules/group-card/signature-pages.js';
import { groupCardRequest } from '../../server/src/modules/group-card/group-card-rules.js';
import { parseCart, toLineInputs, type CartLine } from '../../web/src/storefront/cart/cart-lines';
import { defaultCollectUntil, fromLocalInput, groupCardErrors, toLocalInput } from '../../web/src/storefront/group-card/group-card-rules';
import { typedAddresses } from '../../web/src/storefront/group-card/GroupCardDialogs';
import { validatePersonalisation } from '../../web/src/storefront/product/personalisation-rules';

const now = new Date('2026-12-01T10:00:00Z');
const deliverAt = new Date('2026-12-10T00:00:00Z');

describe('a group card\'s deadline', () => {
  it('is in the future and no later than the delivery', () => {
    expect(collectUntilProblem(new Date('2026-12-09T18:00:00Z'), deliverAt, now)).toBeNull();
    expect(collectUntilProblem(deliverAt, deliverAt, now)).toBeNull();
    expect(collectUntilProblem(new Date('2026-12-10T00:00:01Z'), deliverAt, now)).toMatch(/before the card is delivered/);
    expect(collectUntilProblem(now, deliverAt, now)).toMatch(/in the future/);
    expect(collectUntilProblem(new Date('nope'), deliverAt, now)).toMatch(/ISO 8601/);
  });

  it('is read from a card line only when it asks for a group card', () => {
    expect(groupCardRequest({ recipientName: 'Grace' }, deliverAt, now, 'lines.0.personalisation')).toBeNull();
    expect(groupCardRequest({ groupCard: null }, deliverAt, now, 'f')).toBeNull();
    expect(groupCardRequest({ groupCard: { collectUntil: '2026-12-09T18:00:00+01:00' } }, deliverAt, now, 'f')).toEqual({ collectUntil: new Date('2026-12-09T17:00:00Z'), deliverAt });
    // Without a later day, the card goes out when signing closes.
    expect(groupCardRequest({ groupCard: { collectUntil: '2026-12-09T18:00:00Z' } }, now, now, 'f')).toEqual({ collectUntil: new Date('2026-12-09T18:00:00Z'), deliverAt: new Date('2026-12-09T18:00:00Z') });
    expect(() => groupCardRequest({ groupCard: 'yes' }, deliverAt, now, 'f')).toThrow(/collectUntil/);
    expect(() => groupCardRequest({ groupCard: { collectUntil: 1 } }, deliverAt, now, 'f')).toThrow(/ISO 8601/);
    expect(() => groupCardRequest({ groupCard: { collectUntil: '2026-11-30T18:00:00Z' } }, now, now, 'f')).toThrow(/in the future/);
  });
});

describe('the signature pages of a delivered card', () => {
  const signature = (n: number, length = 40) => ({ name: `Signer ${n}`, message: 'x'.repeat(length) });

  it('has one column on a tall card and two on a wide one', () => {
    expect(pageLayout(4 / 3)).toMatchObject({ columns: 1 });
    expect(pageLayout(3 / 4)).toMatchObject({ columns: 2 });
    expect(pageLayout(4 / 3).lines).toBeGreaterThan(pageLayout(1).lines);
  });

  it('counts the lines a signature takes, paragraph by paragraph, with its name', () => {
    const { characters } = pageLayout(4 / 3);
    expect(linesOf({ name: 'Ann', message: 'Hi' }, characters)).toBe(2.5);
    expect(linesOf({ name: 'Ann', message: 'Hi\nthere\nyou' }, characters)).toBe(4.5);
    expect(linesOf({ name: 'Ann', message: 'x'.repeat(characters * 2 + 1) }, characters)).toBe(4.5);
  });

  it('lays every signature out once, in order, never splitting one, and marks the page of one too long for it', () => {
    const hundred = Array.from({ length: MAX_SIGNATURES }, (_, i) => signature(i, (i * 37) % 500 || 1));
    for (const ratio of [4 / 3, 1, 3 / 4, 7 / 5]) {
      const pages = paginate(hundred, ratio);
      expect(pages.flatMap((page) => page.signatures)).toEqual(hundred);
      const { lines, columns } = pageLayout(ratio);
      for (const page of pages) {
        const heights = page.signatures.map((s) => linesOf(s, pageLayout(ratio).characters));
        const total = heights.reduce((sum, h) => sum + h, 0);
        if (page.signatures.length > 1) {
          expect(total).toBeLessThanOrEqual(lines * columns);
          // On a page of several, each signature fits a column.
          expect(Math.max(...heights.slice(1))).toBeLessThanOrEqual(lines);
        }
        expect(page.overflows).toBe(page.signatures.length === 1 && total > lines * columns);
      }
    }
    // Short signatures share pages: a hundred of them are far fewer pages on a tall card.
    expect(paginate(Array.from({ length: 100 }, (_, i) => signature(i, 30)), 4 / 3).length).toBeLessThanOrEqual(17);
  });
});

describe('"Make it a group card" in the browser', () => {
  const personalisation = { recipients: [{ name: 'Grace', email: 'grace@example.com' }], senderName: 'Ada', message: 'Hi', deliveryDate: '2026-12-10', deliveryTime: '00:00', timeZone: 'UTC' };

  it('checks the deadline against the delivery day and now', () => {
    const today = new Date('2026-12-01T10:00:00');
    expect(groupCardErrors(personalisation, today)).toEqual({});
    expect(groupCardErrors({ ...personalisation, groupCard: { collectUntil: new Date('2026-12-09T18:00:00').toISOString() } }, today)).toEqual({});
    expect(groupCardErrors({ ...personalisation, groupCard: { collectUntil: new Date('2026-12-10T09:00:00').toISOString() } }, today)).toEqual({ collectUntil: 'Signatures must be collected before the card is delivered.' });
    expect(groupCardErrors({ ...personalisation, deliveryDate: null, groupCard: { collectUntil: new Date('2026-12-09T18:00:00').toISOString() } }, today)).toHaveProperty('deliveryDate');
    expect(validatePersonalisation({ ...personalisation, groupCard: { collectUntil: new Date('2026-11-30T18:00:00').toISOString() } }, today)).toEqual({ collectUntil: 'Collect signatures until a time in the future.' });
    // The card's hour counts: a deadline after 09:00 on the day is too late for a card due at 09:00.
    expect(groupCardErrors({ ...personalisation, deliveryTime: '09:00', groupCard: { collectUntil: new Date('2026-12-10T08:00:00').toISOString() } }, today)).toEqual({});
    expect(groupCardErrors({ ...personalisation, deliveryTime: '09:00', groupCard: { collectUntil: new Date('2026-12-10T10:00:00').toISOString() } }, today)).toHaveProperty('collectUntil');
    // One card, one recipient: the group signs it together.
    const two = [...personalisation.recipients, { name: 'Alan', email: 'alan@example.com' }];
    expect(groupCardErrors({ ...personalisation, recipients: two, groupCard: { collectUntil: new Date('2026-12-09T18:00:00').toISOString() } }, today)).toEqual({ recipients: 'A group card goes to one recipient: the whole group signs the one card.' });
  });

  it('offers the evening before the delivery day, and reads the browser\'s local time', () => {
    expect(defaultCollectUntil('2026-12-10', new Date('2026-12-01T10:00:00'))).toBe(new Date('2026-12-09T18:00:00').toISOString());
    expect(defaultCollectUntil('2026-12-02', new Date('2026-12-01T19:00:00'))).toBe(new Date('2026-12-02T00:00:00').toISOString());
    expect(toLocalInput(new Date('2026-12-09T18:05:00'))).toBe('2026-12-09T18:05');
    expect(fromLocalInput('2026-12-09T18:05')).toBe(new Date('2026-12-09T18:05:00').toISOString());
    expect(fromLocalInput('')).toBeNull();
  });

  it('keeps the choice in the stored cart and sends it with the line', () => {
    const line: CartLine = { id: 'a', productId: 1, name: 'Card', quantity: 1, personalisation: { ...personalisation, groupCard: { collectUntil: '2026-12-09T18:00:00.000Z' } } };
    expect(parseCart(JSON.stringify([line]))).toEqual([line]);
    expect(toLineInputs([line])[0]!.personalisation).toMatchObject({ groupCard: { collectUntil: '2026-12-09T18:00:00.000Z' } });
    // A stored choice that is not one is dropped, not sent.
    const broken = parseCart(JSON.stringify([{ ...line, personalisation: { ...line.personalisation, groupCard: { collectUntil: 'soon' } } }]));
    expect(broken[0]!.personalisation).not.toHaveProperty('groupCard');
  });

  it('reads the addresses typed into "Invite by e-mail", each once', () => {
    expect(typedAddresses(' Alex@example.com, sam@example.com;\nalex@example.com  kim@example.com ')).toEqual(['alex@example.com', 'sam@example.com', 'kim@example.com']);
    expect(typedAddresses(' , ')).toEqual([]);
  });
});
