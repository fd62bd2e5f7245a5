import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, quote, renderEmail, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a bought gift card's e-mail says; `code` is erased from the queue once it is sent. */
export interface GiftCardNotice {
  code: string;
  amount: string;
  recipientName: string;
  senderName: string;
  message: string | null;
}

/** The mail kind of a bought gift card, sent to its recipient once the order is paid. */
export const GIFT_CARD_KIND = 'gift-card';

/** The page that shows a gift card: its code travels in the fragment, which browsers never send to a server. */
export const giftCardPage = (baseUrl: string, code: string) => `${baseUrl}/gift-card#${code}`;

/** "Ada sent you a $50.00 gift card": the code, the message, and the page that shows it all. */
export function giftCardEmail(to: string, notice: GiftCardNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = `${notice.senderName} sent you a $${notice.amount} ${shop.name} gift card`;
  const page = giftCardPage(baseUrl, notice.code);
  const use = `Enter the code at checkout: it pays for cards, albums and collections at ${shop.name} until its balance is spent, and it does not expire.`;
  const why = `You receive this e-mail because ${notice.senderName} bought you a gift card at ${shop.name}.`;
  return renderEmail({
    to,
    subject,
    preview: `A gift card of $${notice.amount} from ${notice.senderName}, with its code.`,
    body: mjml`${heading(`Dear ${notice.recipientName},`)}
${paragraph(mjml`${notice.senderName} sent you a gift card of <strong>$${notice.amount}</strong>.`)}
${notice.message ? quote(notice.message, notice.senderName) : ''}
${paragraph(mjml`Your code: <strong style="font-size:20px;letter-spacing:2px">${notice.code}</strong>`)}
${button('View your gift card', page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Dear ${notice.recipientName},\n\n${notice.senderName} sent you a gift card of $${notice.amount}.${notice.message ? `\n\n"${notice.message}"\n— ${notice.senderName}` : ''}\n\nYour code: ${notice.code}\n\nView your gift card: ${page}\n\n${use}\n\n${why}`,
    shop,
  });
}
