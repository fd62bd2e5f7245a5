import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EcardReply } from '../../server/src/modules/ecard/ecard-reply.entity.js';
import type { OrderItem } from '../../server/src/modules/orders/order-item.entity.js';
import type { Order } from '../../server/src/modules/orders/order.entity.js';
import { openedEmail, reminderEmail, thankYouEmail } from '../../server/src/modules/ecard/ecard-emails.js';
import { cardEmail, receiptEmail } from '../../server/src/modules/orders/order-emails.js';
import { parseReminderHours } from '../../server/src/config.js';

const BASE = 'https://cards.example';
const order = {
  id: '6f1c2b3a-0000-4000-8000-000000000001',
  purchaserEmail: 'ada@example.com',
  total: '16.50',
  cardLast4: '4242',
  createdAt: new Date('2026-12-01T10:00:00Z'),
} as Order;
const card = {
  id: 7,
  order,
  name: 'Balloon Birthday',
  quantity: 1,
  lineTotal: '4.50',
  itemUrlUuid: '11111111-2222-4333-8444-555555555555',
  recipientName: 'Grace <Hopper>',
  recipientEmail: 'grace@example.com',
  senderName: 'Ada & co',
  deliverAt: new Date('2026-12-24T05:00:00Z'),
  deliveredAt: new Date('2026-12-24T05:00:00Z'),
  openedAt: new Date('2026-12-24T14:07:00Z'),
  timeZone: 'America/New_York',
} as unknown as OrderItem;
const album = { id: 8, order, name: 'Summer Songs Album', quantity: 2, lineTotal: '12.00', itemUrlUuid: null } as unknown as OrderItem;
const reply = { id: 3, name: 'Grace', message: 'Thank you <3\nIt made my day.', createdAt: new Date('2026-12-24T15:00:00Z') } as EcardReply;
const LINK = `${BASE}/ecards/${card.itemUrlUuid}.html`;

const ARTIFACTS = path.resolve(import.meta.dirname, '../.artifacts/emails');

/** Checks every e-mail shares: an HTML document made by MJML with the shop's frame, and a text part; keeps it for a person to look at. */
function expectShopEmail(mail: { html: string; text: string; subject: string }, name: string) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, `${name}.html`), mail.html);
  fs.writeFileSync(path.join(ARTIFACTS, `${name}.txt`), mail.text);
  expect(mail.html).toMatch(/^<!doctype html>/i);
  expect(mail.html).toContain(`<title>${mail.subject.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>`);
  expect(mail.html).toContain('Art &amp; Song Cards');
  expect(mail.html).not.toContain('<mj-');
  expect(mail.text).toContain('Art & Song Cards — beautiful greetings without the wait.');
  expect(mail.text).not.toMatch(/<(p|div|td|tr|a|br|strong)\b/i);
}

describe('the shop\'s e-mails', () => {
  it('card: to the recipient, from the sender, with the card\'s link; names escaped in HTML only', async () => {
    const mail = await cardEmail(card, BASE);
    expect(mail.to).toBe('grace@example.com');
    expect(mail.subject).toBe('Ada & co sent you a card: Balloon Birthday');
    expect(mail.text).toContain('Dear Grace <Hopper>,');
    expect(mail.text).toContain(`Open your card: ${LINK}`);
    expect(mail.html).toContain('Dear Grace &lt;Hopper&gt;,');
    expect(mail.html).not.toContain('<Hopper>');
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('Open your card');
    expectShopEmail(mail, 'card');
  });

  it('receipt: every line, the total, the card previews and the order\'s page', async () => {
    const mail = await receiptEmail(order, [card, album], BASE);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Your Art & Song Cards order 6F1C2B3A');
    expect(mail.text).toContain('1 × Balloon Birthday  $4.50 — to Grace <Hopper> <grace@example.com>, sent on 2026-12-24');
    expect(mail.text).toContain('2 × Summer Songs Album  $12.00');
    expect(mail.text).toContain('Total: $16.50');
    expect(mail.text).toContain('Paid with card ending 4242');
    expect(mail.text).toContain(`${BASE}/order-confirmation/${order.id}`);
    expect(mail.html).toContain(`href="${LINK}?preview=1"`);
    expect(mail.html).toContain('$16.50');
    expect(mail.html).toContain(`href="${BASE}/order-confirmation/${order.id}"`);
    expectShopEmail(mail, 'receipt');
  });

  it('opened notice: "{recipient} opened your card" to the purchaser, with the time in the shopper\'s zone', async () => {
    const mail = await openedEmail(order, card, BASE);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Grace <Hopper> opened your card');
    // 14:07 UTC is 09:07 in New York.
    expect(mail.text).toContain('Your card "Balloon Birthday" was opened on 24 December 2026 at 09:07.');
    expect(mail.text).toContain(`${BASE}/account`);
    expect(mail.html).toContain('Grace &lt;Hopper&gt; opened your card');
    expect(mail.html).toContain(`href="${BASE}/account"`);
    expectShopEmail(mail, 'opened');
  });

  it('thank-you: the reply as plain text, line breaks kept, escaped in HTML', async () => {
    const mail = await thankYouEmail(order, card, reply, BASE);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('A thank-you from Grace');
    expect(mail.text).toContain('Grace wrote back about your card "Balloon Birthday":\n\nThank you <3\nIt made my day.\n\n— Grace');
    expect(mail.html).toContain('Thank you &lt;3<br>It made my day.');
    expect(mail.html).not.toContain('Thank you <3');
    expectShopEmail(mail, 'thank-you');
  });

  it('reminder: to the recipient, once, with the card\'s link', async () => {
    const mail = await reminderEmail(card, BASE);
    expect(mail.to).toBe('grace@example.com');
    expect(mail.subject).toBe('Your card from Ada & co is waiting: Balloon Birthday');
    expect(mail.text).toContain(`Open your card: ${LINK}`);
    expect(mail.text).toContain('This is the only reminder we send.');
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('Ada &amp; co sent you an e-greeting card');
    expectShopEmail(mail, 'reminder');
  });
});

describe('REMINDER_AFTER_HOURS', () => {
  it('defaults to 72, takes fractions, 0 turns reminders off, refuses the rest', () => {
    expect(parseReminderHours(undefined)).toBe(72);
    expect(parseReminderHours('0.001')).toBe(0.001);
    expect(parseReminderHours('0')).toBe(0);
    expect(() => parseReminderHours('-1')).toThrow(/REMINDER_AFTER_HOURS/);
    expect(() => parseReminderHours('soon')).toThrow(/REMINDER_AFTER_HOURS/);
  });
});
