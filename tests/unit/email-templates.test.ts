import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { changeEmail, confirmEmail, emailChangedEmail, passwordResetEmail } from '../../server/src/modules/auth/account-emails.js';
import { occasionReminderEmail } from '../../server/src/modules/contacts/reminder-emails.js';
import type { EcardReply } from '../../server/src/modules/ecard/ecard-reply.entity.js';
import { openedEmail, reminderEmail, thankYouEmail } from '../../server/src/modules/ecard/ecard-emails.js';
import { invitationEmail, signingReminderEmail } from '../../server/src/modules/group-card/group-card-emails.js';
import type { GroupCard, GroupCardInvitation } from '../../server/src/modules/group-card/group-card.entity.js';
import { MailQueue } from '../../server/src/modules/mail/mail-queue.js';
import { compileStats } from '../../server/src/modules/mail/templates/compiled.js';
import type { OrderItem } from '../../server/src/modules/orders/order-item.entity.js';
import type { Order } from '../../server/src/modules/orders/order.entity.js';
import { cardEmail, receiptEmail } from '../../server/src/modules/orders/order-emails.js';
import { refundEmail } from '../../server/src/modules/orders/refund-email.js';
import { createServices } from '../../server/src/services.js';
import { staffInvitationEmail } from '../../server/src/modules/staff/staff-emails.js';
import * as reference from '../helpers/email-reference/emails.js';
import { giftCardEmail } from '../../server/src/modules/gift-cards/gift-card-email.js';
import { giftMembershipEmail } from '../../server/src/modules/memberships/gift-membership-email.js';
import { paymentFailedEmail, renewalReminderEmail, renewedEmail } from '../../server/src/modules/memberships/membership-emails.js';
import { webhookDisabledEmail } from '../../server/src/modules/webhooks/webhook-emails.js';

/**
 * Contract section 10: each template is compiled by MJML once per process and an e-mail is the
 * compiled HTML filled with escaped values; what the recipient sees is unchanged. Every kind is held
 * byte for byte to the renderer it replaced (MJML for every e-mail, kept in tests/helpers/email-reference),
 * over data that tries the escaping: markup, ampersands, quotes, line breaks, accents, emoji.
 */
const BASE = 'https://cards.example';
const NAMES = ['Grace <Hopper>', 'Ada & co', `O'Brien "Bob"`, 'Zoë 🎉 Łukasz', 'plain'];

const orderOf = (n: number, extra: Partial<Order> = {}) =>
  ({ id: `6f1c2b3a-0000-4000-8000-00000000000${n}`, purchaserEmail: `buyer${n}@example.com`, total: '16.50', cardLast4: n % 2 ? '4242' : null, createdAt: new Date('2026-12-01T10:00:00Z'), discountCode: null, discountAmount: '0.00', ...extra }) as Order;

const cardOf = (n: number, order: Order, extra: Record<string, unknown> = {}) =>
  ({
    id: 10 + n,
    order,
    name: n % 2 ? 'Balloon Birthday' : 'Candles & Cake <deluxe>',
    quantity: 1,
    lineTotal: '4.50',
    itemUrlUuid: `11111111-2222-4333-8444-55555555555${n}`,
    recipientName: NAMES[n % NAMES.length],
    recipientEmail: `friend${n}@example.com`,
    senderName: n === 3 ? null : NAMES[(n + 1) % NAMES.length],
    deliverAt: n % 2 ? new Date('2026-12-24T05:00:00Z') : null,
    deliveredAt: new Date('2026-12-24T05:00:00Z'),
    openedAt: new Date('2026-12-24T14:07:00Z'),
    timeZone: n % 2 ? 'America/New_York' : null,
    ...extra,
  }) as unknown as OrderItem;

const albumOf = (order: Order) => ({ id: 99, order, name: 'Summer Songs & "Hits"', quantity: 2, lineTotal: '12.00', itemUrlUuid: null }) as unknown as OrderItem;
const replyOf = (n: number) => ({ id: n, name: NAMES[n % NAMES.length], message: n % 2 ? 'Thank you <3\nIt made my day & more.\n\n"Really"' : 'Merci ✨', createdAt: new Date() }) as EcardReply;

async function same(current: Promise<{ to: string; subject: string; text: string; html: string }>, before: Promise<{ to: string; subject: string; text: string; html: string }>) {
  const [now, then] = await Promise.all([current, before]);
  expect(now.to).toBe(then.to);
  expect(now.subject).toBe(then.subject);
  expect(now.text).toBe(then.text);
  expect(now.html).toBe(then.html);
}

/** Every kind of e-mail the shop registers with its mail queue, and the test below that holds its renderer to the reference. */
const KINDS: Record<string, string> = {
  card: 'card',
  'card-resend': 'card',
  'card-test': 'card test',
  'refund-notice': 'refund notice',
  receipt: 'receipt',
  'receipt-resend': 'receipt',
  opened: 'opened notice',
  'thank-you': 'thank-you',
  reminder: 'reminder',
  'staff-invitation': 'staff invitation',
  'password-reset': 'account',
  'email-confirm': 'account',
  'email-change': 'account',
  'email-changed': 'account',
  'group-card-invitation': 'group card',
  'group-card-reminder': 'group card',
  'occasion-reminder': 'occasion reminder',
  'gift-card': 'gift card',
  'gift-membership': 'gift membership',
  'membership-payment-failed': 'membership',
  'membership-renewal-reminder': 'membership',
  'membership-renewed': 'membership',
  'webhook-disabled': 'webhook turned off',
};

/** The kinds the shop's services register, as they are put together for a process. */
function registeredKinds(): string[] {
  const kinds: string[] = [];
  const register = MailQueue.prototype.register;
  MailQueue.prototype.register = function (this: MailQueue, definition) {
    kinds.push(definition.kind);
    return register.call(this, definition);
  } as typeof register;
  try {
    createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) });
  } finally {
    MailQueue.prototype.register = register;
  }
  return kinds.sort();
}

/** Moments that try the formatting: a day's last minute, midnight, a zone whose day differs from UTC's. */
const MOMENTS = [new Date('2026-12-24T23:59:00Z'), new Date('2027-01-01T00:00:00Z'), new Date('2026-03-08T07:05:00Z')];
const ZONES = [null, 'America/New_York', 'Asia/Tokyo', 'Pacific/Chatham'];

describe('compiled e-mail templates', () => {
  it('has a reference for every kind of e-mail the shop registers', () => {
    expect(registeredKinds()).toEqual(Object.keys(KINDS).sort());
  });

  it('card: byte-equal to the old renderer', async () => {
    for (let n = 0; n < 5; n++) {
      const card = cardOf(n, orderOf(n));
      await same(cardEmail(card, BASE), reference.cardEmail(card, BASE));
      // With its unsubscribe link (an address with "&" and "<" in it is escaped alike).
      const unsubscribe = `${BASE}/unsubscribe?token=t${n}&x=<${n}>`;
      await same(cardEmail(card, BASE, unsubscribe), reference.cardEmail(card, BASE, unsubscribe));
    }
  });

  it("card test: the card's e-mail with the preview's link, and a note that it is a test in place of the recipient's", async () => {
    const card = cardOf(2, orderOf(2));
    const link = `${BASE}/ecards/preview?card=abc.def`;
    const [real, test] = [await cardEmail(card, BASE, `${BASE}/unsubscribe?token=t`), await cardEmail({ ...card, recipientEmail: 'me@example.com' } as OrderItem, BASE, undefined, { link, days: 7 })];
    expect(test.subject).toBe(`Test: ${real.subject}`);
    expect(test.text).toContain(`Open your card: ${link}`);
    expect(test.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(test.text).toContain('This is a test you sent yourself from Art & Song Cards');
    expect(test.text).toContain('its link shows the card for 7 days');
    expect(test.text).not.toContain('unsubscribe');
    expect(test.text).not.toContain(card.itemUrlUuid!);
  });

  it('refund notice: the amount, the lines and the link to the order, never the reason', async () => {
    const mail = await refundEmail('ada@example.com', { orderId: '6f1c2b3a-0000-4000-8000-000000000001', amount: '4.50', lines: ['Balloon Birthday to Grace'] }, BASE);
    expect(mail.subject).toBe('Your refund for order 6F1C2B3A');
    expect(mail.text).toContain('We refunded $4.50 to the card you paid with, for: Balloon Birthday to Grace.');
    expect(mail.text).toContain(`See your order: ${BASE}/order-confirmation/6f1c2b3a-0000-4000-8000-000000000001`);
    expect(mail.html).toContain('<strong>$4.50</strong>');
  });

  it('webhook turned off: the URL (escaped), since when it failed, and the link to the endpoint in the console', async () => {
    const mail = await webhookDisabledEmail('owner@example.com', { endpointId: 7, url: 'https://hooks.example.com/a?x=1&y=<2>', failingSince: '2026-11-27T09:30:00.000Z' }, BASE);
    expect(mail.subject).toBe('A webhook endpoint was turned off');
    expect(mail.text).toContain('Every delivery to https://hooks.example.com/a?x=1&y=<2> has failed since 2026-11-27 09:30 UTC, so Art & Song Cards stopped sending events to it.');
    expect(mail.text).toContain(`See the endpoint: ${BASE}/admindash?view=webhooks&endpoint=7`);
    expect(mail.html).toContain('https://hooks.example.com/a?x=1&amp;y=&lt;2&gt;');
    expect(mail.html).not.toContain('<2>');
  });

  it('gift card: byte-equal, with and without a message (its markup escaped), the code and its page', async () => {
    const notice = { code: 'ACDE-FGHJ-KMNP-QR34', amount: '50.00', recipientName: 'Grace <Hopper>', senderName: 'Ada & Co', message: 'For your next cards!\nWith love <3' };
    await same(giftCardEmail('grace@example.com', notice, BASE), reference.giftCardEmail('grace@example.com', notice, BASE));
    const plain = { ...notice, message: null };
    const mail = await giftCardEmail('grace@example.com', plain, BASE);
    await same(Promise.resolve(mail), reference.giftCardEmail('grace@example.com', plain, BASE));
    expect(mail.subject).toBe('Ada & Co sent you a $50.00 Art & Song Cards gift card');
    expect(mail.text).toContain(`View your gift card: ${BASE}/gift-card#ACDE-FGHJ-KMNP-QR34`);
    expect(mail.html).toContain('ACDE-FGHJ-KMNP-QR34');
  });

  it('gift membership: byte-equal for a month and a year, with and without a message (its markup escaped), the code and where to redeem it', async () => {
    for (const period of ['month', 'year'] as const) {
      const notice = { code: 'ACDE-FGHJ-KMNP-QR34', planName: 'Card Lover <Yearly>', period, recipientName: 'Grace <Hopper>', senderName: 'Ada & Co', message: 'Cards all year!\nWith love <3' };
      await same(giftMembershipEmail('grace@example.com', notice, BASE), reference.giftMembershipEmail('grace@example.com', notice, BASE));
      await same(giftMembershipEmail('grace@example.com', { ...notice, message: null }, BASE), reference.giftMembershipEmail('grace@example.com', { ...notice, message: null }, BASE));
    }
    const mail = await giftMembershipEmail('grace@example.com', { code: 'ACDE-FGHJ-KMNP-QR34', planName: 'Card Lover', period: 'year', recipientName: 'Grace', senderName: 'Ada', message: null }, BASE);
    expect(mail.subject).toBe('Ada gave you a year of Art & Song Cards membership');
    expect(mail.text).toContain(`Redeem your membership: ${BASE}/membership#gift=ACDE-FGHJ-KMNP-QR34`);
    expect(mail.html).toContain('ACDE-FGHJ-KMNP-QR34');
  });

  it("membership: a failed renewal, a yearly plan's reminder and a renewal's receipt, byte-equal, with and without the card's last four", async () => {
    for (const [at, cardLast4] of [['2027-01-08T00:00:00.000Z', '0341'], ['2026-12-31T23:30:00.000Z', null]] as const) {
      const notice = { planName: 'Card Lover <Yearly>', amount: '39.00', at, cardLast4 };
      await same(paymentFailedEmail('ada@example.com', notice, BASE), reference.paymentFailedEmail('ada@example.com', notice, BASE));
      await same(renewalReminderEmail('ada@example.com', notice, BASE), reference.renewalReminderEmail('ada@example.com', notice, BASE));
      await same(renewedEmail('ada@example.com', notice, BASE), reference.renewedEmail('ada@example.com', notice, BASE));
    }
    const failed = await paymentFailedEmail('ada@example.com', { planName: 'Monthly', amount: '4.99', at: '2027-01-08T00:00:00.000Z', cardLast4: '0341' }, BASE);
    expect(failed.subject).toBe('We could not renew your Monthly membership');
    expect(failed.text).toContain('We tried to charge $4.99 to the card ending 0341 for your Monthly membership, and the payment was declined. Your membership and its benefits continue until 8 January 2027; after that it ends.');
    const reminder = await renewalReminderEmail('ada@example.com', { planName: 'Yearly', amount: '39.00', at: '2027-12-01T10:00:00.000Z', cardLast4: '4242' }, BASE);
    expect(reminder.subject).toBe('Your Yearly membership renews on 1 December 2027');
    const renewed = await renewedEmail('ada@example.com', { planName: 'Card Lover', amount: '4.99', at: '2027-03-15T10:00:00.000Z', cardLast4: '1234' }, BASE);
    expect(renewed.subject).toBe('Your Card Lover membership renewed');
    expect(renewed.text).toContain('Your Card Lover membership renewed: $4.99 charged to the card ending 1234, next renewal on 15 March 2027.');
    expect(renewed.text).toContain(`${BASE}/membership`);
  });

  it('refund notice: what went back to a gift card and what to the card', async () => {
    const split = await refundEmail('ada@example.com', { orderId: '6f1c2b3a-0000-4000-8000-000000000001', amount: '24.00', lines: ['2 × Summer Songs Album'], toGiftCard: '10.00', giftCardLast4: 'AC3D' }, BASE);
    expect(split.text).toContain('We refunded $24.00: $10.00 to your gift card ending AC3D and $14.00 to the card you paid with, for: 2 × Summer Songs Album.');
    expect(split.text).toContain('Banks usually show a refund within 5 to 10 working days.');
    const gift = await refundEmail('ada@example.com', { orderId: '6f1c2b3a-0000-4000-8000-000000000001', amount: '4.50', lines: ['Balloon Birthday to Grace'], toGiftCard: '4.50', giftCardLast4: 'AC3D' }, BASE);
    expect(gift.text).toContain('We refunded $4.50 to your gift card ending AC3D, for: Balloon Birthday to Grace.');
    expect(gift.text).not.toContain('Banks');
    expect(gift.html).toContain('<strong>$4.50</strong> to your gift card ending AC3D');
  });

  it('receipt (and its resend): byte-equal, with and without a discount, cards now and later, other products', async () => {
    for (let n = 0; n < 5; n++) {
      const order = orderOf(n, n % 2 ? { discountCode: 'TEN&OFF', discountAmount: '1.65', total: '14.85' } : {});
      const items = [cardOf(n, order), cardOf(n + 1, order), ...(n % 3 ? [albumOf(order)] : [])];
      await same(receiptEmail(order, items, BASE), reference.receiptEmail(order, items, BASE));
    }
    const order = orderOf(7);
    await same(receiptEmail(order, [albumOf(order)], BASE), reference.receiptEmail(order, [albumOf(order)], BASE));
  });

  it('receipt: what a gift card paid and what the card paid, or the gift card alone', async () => {
    const split = orderOf(1, { giftCardAmount: '10.00', giftCardLast4: 'AC3D' });
    const splitMail = await receiptEmail(split, [albumOf(split)], BASE);
    await same(Promise.resolve(splitMail), reference.receiptEmail(split, [albumOf(split)], BASE));
    expect(splitMail.text).toContain('Paid $10.00 with gift card ending AC3D and $6.50 with card ending 4242');
    const whole = orderOf(2, { giftCardAmount: '16.50', giftCardLast4: 'AC3D' });
    const wholeMail = await receiptEmail(whole, [albumOf(whole)], BASE);
    await same(Promise.resolve(wholeMail), reference.receiptEmail(whole, [albumOf(whole)], BASE));
    expect(wholeMail.text).toContain('Paid with gift card ending AC3D\n');
  });

  it("receipt: the short order number the confirmation page shows, and each later card's day and hour in the shopper's zone", async () => {
    const order = orderOf(3);
    const later = cardOf(3, order, { timeZone: 'America/New_York', deliverAt: new Date('2026-12-24T14:00:00Z') });
    const now = cardOf(4, order, { timeZone: 'America/New_York', deliverAt: null });
    const mail = await receiptEmail(order, [later, now], BASE);
    expect(mail.text).toContain('Order number: 6F1C2B3A\n');
    expect(mail.html).toContain('Order number: <strong>6F1C2B3A</strong>');
    expect(mail.text).toContain(', sent on 24 December 2026 at 09:00 (America/New_York time): ');
    expect(mail.text).toContain(', sent now: ');
  });

  it('opened notice, thank-you and reminder: byte-equal, in several time zones', async () => {
    for (let n = 0; n < 5; n++) {
      const order = orderOf(n);
      const card = cardOf(n, order);
      await same(openedEmail(order, card, BASE), reference.openedEmail(order, card, BASE));
      await same(thankYouEmail(order, card, replyOf(n), BASE), reference.thankYouEmail(order, card, replyOf(n), BASE));
      await same(reminderEmail(card, BASE), reference.reminderEmail(card, BASE));
      await same(reminderEmail(card, BASE, `${BASE}/unsubscribe?token=r${n}`), reference.reminderEmail(card, BASE, `${BASE}/unsubscribe?token=r${n}`));
    }
    for (const [index, timeZone] of ZONES.entries()) {
      const order = orderOf(index);
      const card = cardOf(index, order, { timeZone, openedAt: MOMENTS[index % MOMENTS.length], deliveredAt: MOMENTS[(index + 1) % MOMENTS.length] });
      await same(openedEmail(order, card, BASE), reference.openedEmail(order, card, BASE));
      await same(reminderEmail(card, BASE), reference.reminderEmail(card, BASE));
    }
    // The opened notice of an account's order points to its settings.
    const order = orderOf(9, { user: { id: 1 } as never });
    await same(openedEmail(order, cardOf(9, order), BASE), reference.openedEmail(order, cardOf(9, order), BASE));
  });

  it('staff invitation: byte-equal', async () => {
    for (const [role, invitedBy] of [['staff', 'admin'], ['admin', null], ['staff', `O'Brien & <co>`]] as const) {
      const input = { to: 'new@example.com', role, link: `${BASE}/staff/accept?token=abc_DEF-123`, invitedBy, expiresAt: new Date('2026-12-08T10:00:00Z') };
      await same(staffInvitationEmail(input), reference.staffInvitationEmail(input));
    }
  });

  it('account e-mails (password reset, address confirmation, change of address, address changed): byte-equal', async () => {
    for (const [n, username] of NAMES.entries()) {
      const to = `user${n}@example.com`;
      const link = `${BASE}/reset-password?token=t${n}_-&x=<${n}>`;
      const expiresAt = MOMENTS[n % MOMENTS.length]!;
      await same(passwordResetEmail(to, username, link, expiresAt), reference.passwordResetEmail(to, username, link, expiresAt));
      await same(confirmEmail(to, username, link, expiresAt), reference.confirmEmail(to, username, link, expiresAt));
      await same(changeEmail(to, username, link, expiresAt), reference.changeEmail(to, username, link, expiresAt));
      await same(emailChangedEmail(to, username, `new"${n}"&<co>@example.com`, BASE), reference.emailChangedEmail(to, username, `new"${n}"&<co>@example.com`, BASE));
    }
  });

  it('group card invitation and signing reminder: byte-equal, without a sender or a recipient too', async () => {
    for (let n = 0; n < 6; n++) {
      const order = orderOf(n);
      const item = cardOf(n, order, { recipientName: n === 4 ? null : NAMES[n % NAMES.length], senderName: n === 3 ? null : NAMES[(n + 2) % NAMES.length], timeZone: ZONES[n % ZONES.length] });
      const card = { signingToken: `SgnTok${n}_-abcdefghijklmnopqrstuvwxyz0123456789AB`, collectUntil: MOMENTS[n % MOMENTS.length] } as GroupCard;
      const invitation = { email: `guest${n}@example.com`, code: `c0de${n}` } as GroupCardInvitation;
      await same(invitationEmail({ invitation, card, item }, BASE), reference.invitationEmail({ invitation, card, item }, BASE));
      await same(signingReminderEmail({ invitation, card, item }, BASE), reference.signingReminderEmail({ invitation, card, item }, BASE));
    }
  });

  it('occasion reminder: byte-equal, on every day of a week', async () => {
    const labels = ['Birthday', 'Anniversary & "Party"', 'Name <day>'];
    for (const [n, day] of ['2026-12-09', '2026-12-10', '2026-12-11', '2026-12-12', '2026-12-13', '2027-01-01', '2028-02-29'].entries()) {
      const payload = { occasionId: n, contactName: NAMES[n % NAMES.length]!, label: labels[n % labels.length]!, occasionDay: day };
      const links = { shop: `${BASE}/shop`, stop: `${BASE}/reminders/stop?token=a%2Bb${n}&x=<y>`, addressBook: `${BASE}/account/contacts` };
      await same(occasionReminderEmail(`me${n}@example.com`, payload, links), reference.occasionReminderEmail(`me${n}@example.com`, payload, links));
    }
  });

  it('runs MJML once per template shape, not per e-mail', async () => {
    const order = orderOf(1);
    await cardEmail(cardOf(1, order), BASE);
    const before = { ...compileStats };
    for (let n = 0; n < 200; n++) await cardEmail(cardOf(1, order, { recipientName: `Friend ${n} <${n}>`, itemUrlUuid: `11111111-2222-4333-8444-${String(n).padStart(12, '0')}` }), BASE);
    expect(compileStats.compiled).toBe(before.compiled);
    expect(compileStats.filled - before.filled).toBe(200);
  });
});
