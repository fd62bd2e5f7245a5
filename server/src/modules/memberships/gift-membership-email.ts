import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, quote, renderEmail, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a gift membership's e-mail says; `code` is erased from the queue once it is sent. */
export interface GiftMembershipNotice {
  code: string;
  planName: string;
  period: 'month' | 'year';
  recipientName: string;
  senderName: string;
  message: string | null;
}

/** The mail kind of a bought gift membership, sent to its recipient once the order is paid. */
export const GIFT_MEMBERSHIP_KIND = 'gift-membership';

/** Where a gift membership is redeemed: its code travels in the fragment, which browsers never send to a server. */
export const giftMembershipPage = (baseUrl: string, code: string) => `${baseUrl}/membership#gift=${code}`;

/** "Ada gave you a year of membership": the plan, the message, the code and where to redeem it. */
export function giftMembershipEmail(to: string, notice: GiftMembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const length = notice.period === 'year' ? 'a year' : 'a month';
  const subject = `${notice.senderName} gave you ${length} of ${shop.name} membership`;
  const page = giftMembershipPage(baseUrl, notice.code);
  const use = `Sign in (or create an account) and enter the code on the membership page. The membership starts when you redeem it and lasts ${length}; it never charges you anything.`;
  const why = `You receive this e-mail because ${notice.senderName} bought you a membership at ${shop.name}.`;
  return renderEmail({
    to,
    subject,
    preview: `${length[0]!.toUpperCase()}${length.slice(1)} of the ${notice.planName} membership from ${notice.senderName}, with its code.`,
    body: mjml`${heading(`Dear ${notice.recipientName},`)}
${paragraph(mjml`${notice.senderName} gave you ${length} of the <strong>${notice.planName}</strong> membership.`)}
${notice.message ? quote(notice.message, notice.senderName) : ''}
${paragraph(mjml`Your code: <strong style="font-size:20px;letter-spacing:2px">${notice.code}</strong>`)}
${button('Redeem your membership', page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Dear ${notice.recipientName},\n\n${notice.senderName} gave you ${length} of the ${notice.planName} membership.${notice.message ? `\n\n"${notice.message}"\n— ${notice.senderName}` : ''}\n\nYour code: ${notice.code}\n\nRedeem your membership: ${page}\n\n${use}\n\n${why}`,
    shop,
  });
}
