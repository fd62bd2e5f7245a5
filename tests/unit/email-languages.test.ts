import { describe, expect, it } from 'vitest';
import { changeEmail, confirmEmail, emailChangedEmail, passwordResetEmail } from '../../server/src/modules/auth/account-emails.js';
import { occasionReminderEmail } from '../../server/src/modules/contacts/reminder-emails.js';
import type { EcardReply } from '../../server/src/modules/ecard/ecard-reply.entity.js';
import { openedEmail, reminderEmail, thankYouEmail } from '../../server/src/modules/ecard/ecard-emails.js';
import { giftCardEmail } from '../../server/src/modules/gift-cards/gift-card-email.js';
import { invitationEmail, signingReminderEmail } from '../../server/src/modules/group-card/group-card-emails.js';
import type { GroupCard, GroupCardInvitation } from '../../server/src/modules/group-card/group-card.entity.js';
import type { MailContent } from '../../server/src/modules/mail/index.js';
import { giftMembershipEmail } from '../../server/src/modules/memberships/gift-membership-email.js';
import { paymentFailedEmail, renewalReminderEmail, renewedEmail } from '../../server/src/modules/memberships/membership-emails.js';
import type { OrderItem } from '../../server/src/modules/orders/order-item.entity.js';
import type { Order } from '../../server/src/modules/orders/order.entity.js';
import { cardEmail, receiptEmail } from '../../server/src/modules/orders/order-emails.js';
import { refundEmail } from '../../server/src/modules/orders/refund-email.js';
import { LOCALES, type Locale } from '../../server/src/rules/locales.js';

/**
 * Contract section 20: every e-mail to a shopper, a recipient or a signer in each of the shop's
 * languages. What each says (its subject and its plain text; the HTML is the same words in the
 * compiled layout) is kept in a file per language beside this test, for people to read and review.
 */
const BASE = 'https://cards.example';
const SUPPORT = { name: 'Art & Song Cards', supportEmail: 'help@cards.example', senderName: null, timeZone: 'Europe/Berlin' };

const orderIn = (locale: Locale, extra: Partial<Order> = {}) =>
  ({ id: '6f1c2b3a-0000-4000-8000-000000000001', purchaserEmail: 'ada@example.com', total: '14.85', cardLast4: '4242', createdAt: new Date('2026-12-01T10:00:00Z'), discountCode: 'TENOFF', discountAmount: '1.65', giftCardAmount: '5.00', giftCardLast4: 'AC3D', locale, ...extra }) as Order;

const cardOf = (order: Order, extra: Record<string, unknown> = {}) =>
  ({
    id: 11,
    order,
    name: 'Balloon Birthday',
    quantity: 1,
    price: '4.50',
    lineTotal: '4.50',
    itemUrlUuid: '11111111-2222-4333-8444-555555555551',
    recipientName: 'Grace',
    recipientEmail: 'grace@example.com',
    senderName: 'Ada',
    deliverAt: new Date('2026-12-24T14:00:00Z'),
    deliveredAt: new Date('2026-12-24T14:00:00Z'),
    openedAt: new Date('2026-12-24T15:07:00Z'),
    timeZone: 'Europe/Paris',
    ...extra,
  }) as unknown as OrderItem;

const album = (order: Order) => ({ id: 12, order, name: 'Summer Songs Album', quantity: 2, price: '6.00', compareAtPrice: '7.50', lineTotal: '12.00', itemUrlUuid: null }) as unknown as OrderItem;

/** Every e-mail to a shopper, a recipient or a signer, by name, written in `locale`. */
function emails(locale: Locale): [string, Promise<MailContent>][] {
  const order = orderIn(locale);
  const card = cardOf(order);
  const later = cardOf(order, { id: 13, recipientName: 'Linus', deliverAt: new Date('2026-12-24T14:00:00Z') });
  const reply = { id: 1, name: 'Grace', message: 'Thank you!\nIt made my day.', createdAt: new Date() } as EcardReply;
  const groupCard = { signingToken: 'SgnTok0_-abcdefghijklmnopqrstuvwxyz0123456789AB', collectUntil: new Date('2026-12-23T17:00:00Z') } as GroupCard;
  const invitation = { email: 'guest@example.com', code: 'c0de' } as GroupCardInvitation;
  const expires = new Date('2026-12-01T11:00:00Z');
  const membership = { planName: 'Card Lover', amount: '39.00', at: '2027-01-08T00:00:00.000Z', cardLast4: '0341', locale };
  return [
    ['card', cardEmail(card, BASE, `${BASE}/unsubscribe?token=t`)],
    ['card test', cardEmail({ ...card, recipientEmail: 'ada@example.com' } as OrderItem, BASE, undefined, { link: `${BASE}/ecards/preview?card=abc`, days: 7 }, undefined, locale)],
    ['receipt', receiptEmail(order, [card, later, album(order)], BASE, SUPPORT)],
    ['opened (a guest)', openedEmail(order, card, BASE)],
    ['opened (an account)', openedEmail(orderIn(locale, { user: { id: 1 } as never }), card, BASE)],
    ['thank-you', thankYouEmail(order, card, reply, BASE)],
    ['reminder', reminderEmail(card, BASE, `${BASE}/unsubscribe?token=r`)],
    ['refund (to the card)', refundEmail('ada@example.com', { orderId: order.id, amount: '4.50', lines: ['Balloon Birthday to Grace'], locale }, BASE)],
    ['refund (both)', refundEmail('ada@example.com', { orderId: order.id, amount: '24.00', lines: ['2 × Summer Songs Album'], toGiftCard: '10.00', giftCardLast4: 'AC3D', locale }, BASE)],
    ['refund (to the gift card)', refundEmail('ada@example.com', { orderId: order.id, amount: '4.50', lines: ['Balloon Birthday'], toGiftCard: '4.50', giftCardLast4: 'AC3D', locale }, BASE)],
    ['group card invitation', invitationEmail({ invitation, card: groupCard, item: card }, BASE)],
    ['group card invitation (no names)', invitationEmail({ invitation, card: groupCard, item: cardOf(order, { senderName: null, recipientName: null }) }, BASE)],
    ['group card reminder', signingReminderEmail({ invitation, card: groupCard, item: card }, BASE)],
    ['occasion reminder', occasionReminderEmail('ada@example.com', { occasionId: 1, contactName: 'Grace', label: 'Birthday', occasionDay: '2026-12-09', locale }, { shop: `${BASE}/shop`, stop: `${BASE}/reminders/stop?token=s`, addressBook: `${BASE}/account/contacts` })],
    ['gift card', giftCardEmail('grace@example.com', { code: 'ACDE-FGHJ-KMNP-QR34', amount: '50.00', recipientName: 'Grace', senderName: 'Ada', message: 'For your next cards!', locale }, BASE)],
    ['gift membership (a year)', giftMembershipEmail('grace@example.com', { code: 'ACDE-FGHJ-KMNP-QR34', planName: 'Card Lover', period: 'year', recipientName: 'Grace', senderName: 'Ada', message: null, locale }, BASE)],
    ['gift membership (a month)', giftMembershipEmail('grace@example.com', { code: 'ACDE-FGHJ-KMNP-QR34', planName: 'Card Lover', period: 'month', recipientName: 'Grace', senderName: 'Ada', message: 'Enjoy!', locale }, BASE)],
    ['membership payment failed', paymentFailedEmail('ada@example.com', membership, BASE)],
    ['membership payment failed (no card)', paymentFailedEmail('ada@example.com', { ...membership, cardLast4: null }, BASE)],
    ['membership renewal reminder', renewalReminderEmail('ada@example.com', membership, BASE)],
    ['membership renewed', renewedEmail('ada@example.com', membership, BASE)],
    ['password reset', passwordResetEmail('ada@example.com', 'ada', `${BASE}/reset-password?token=t`, expires, SUPPORT, locale)],
    ['address confirmation', confirmEmail('ada@example.com', 'ada', `${BASE}/verify-email?token=t`, expires, SUPPORT, locale)],
    ['change of address', changeEmail('new@example.com', 'ada', `${BASE}/verify-email?token=t`, expires, SUPPORT, locale)],
    ['address changed', emailChangedEmail('ada@example.com', 'ada', 'new@example.com', BASE, SUPPORT, locale)],
  ];
}

/** What an e-mail says: its subject, the line beside it, and its plain text. */
const said = async (name: string, mail: Promise<MailContent>) => {
  const { subject, text, html } = await mail;
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  const preview = (/<div style="display:none;[^>]*>([^<]*)/.exec(html)?.[1]?.trim() ?? '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity]!);
  return `=== ${name}\nSubject: ${subject}\nPreview: ${preview}\n\n${text}`;
};

describe('e-mails in every language', () => {
  it.each(LOCALES)('%s: every e-mail to shoppers, recipients and signers', async (locale) => {
    const all = await Promise.all(emails(locale).map(([name, mail]) => said(name, mail)));
    await expect(all.join('\n')).toMatchFileSnapshot(`./__snapshots__/email-languages/${locale}.txt`);
  });

  it('German, French and Spanish say none of the English words, and mark their HTML with their language', async () => {
    const english = await Promise.all(emails('en').map(([, mail]) => mail));
    for (const locale of ['de', 'fr', 'es'] as const) {
      const written = await Promise.all(emails(locale).map(([, mail]) => mail));
      written.forEach((mail, i) => {
        expect(mail.subject).not.toBe(english[i]!.subject);
        expect(mail.html).toMatch(new RegExp(`<html [^>]*lang="${locale}"`));
        for (const phrase of ['You receive this e-mail', 'Open your card', 'beautiful greetings', 'Questions?', 'Paid with', 'Sign the card']) expect(mail.text).not.toContain(phrase);
      });
    }
  });
});
