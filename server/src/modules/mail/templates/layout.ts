import { SafeHtml } from '../../../core/html.js';
import { asHtml, literal, MailTemplate, mjml, renderSource, renderTemplate, type TemplateValue } from './compiled.js';
import { DEFAULT_SHOP_IDENTITY, type ShopIdentity } from './shop-identity.js';
import { defineMessages } from '@formatjs/intl';
import { wordsFor, type Locale, type Words } from './mail-words.js';

export { literal, mjml, MailTemplate } from './compiled.js';

/** A finished e-mail: the recipient, the subject, and its plain-text and HTML parts. */
export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface EmailParts {
  to: string;
  subject: string;
  /** The line mail programs show beside the subject. */
  preview: string;
  /**
   * The body in MJML, written with the `mjml` tag and the pieces below (compiled once per process,
   * then filled). A SafeHtml body (the `html` tag) still works, compiled by MJML for each e-mail.
   */
  body: MailTemplate | SafeHtml;
  /** The plain-text part, without the shop's footer (added here). */
  text: string;
  /** Whose e-mail it is (the name in the header and footer, the support address); the default shop when left out. */
  shop?: ShopIdentity;
  /** The language it is written in (its footer too); English when left out. */
  locale?: Locale;
}

const messages = defineMessages({
  footer: { id: 'mail.footer', defaultMessage: '{shop} — beautiful greetings without the wait.' },
  support: { id: 'mail.footer.support', defaultMessage: 'Questions? Write to <mail>{email}</mail>.' },
});

// The shop's colours, part of the templates' shape (MJML reads them).
const BRAND = literal('#b0413e');
const INK = literal('#2b2b2b');
const QUIET = literal('#7a6f66');
const PAPER = literal('#f4f1ec');
const footer = (shop: ShopIdentity, words: Words) => words.text(messages.footer, { shop: shop.name });
const supportLine = (email: string, words: Words) => words.text(messages.support, { email }, { mail: (inner) => inner });
const supportHtml = (email: string, words: Words) => words.html(messages.support, { email }, { mail: (inner) => `<a href="mailto:${inner}" style="color:${QUIET.text}">${inner}</a>` });

/** A heading of an e-mail. */
export const heading = (text: string | MailTemplate | SafeHtml) =>
  mjml`<mj-text font-size="26px" line-height="1.3" color="${INK}" padding-bottom="8px">${text}</mj-text>`;

/** A paragraph of an e-mail (plain text; line breaks kept). */
export const paragraph = (text: string | MailTemplate | SafeHtml, options: { quiet?: boolean } = {}) => {
  const content = typeof text === 'string' ? lines(text) : text;
  return options.quiet
    ? mjml`<mj-text font-size="13px" line-height="1.55" color="${QUIET}">${content}</mj-text>`
    : mjml`<mj-text font-size="16px" line-height="1.55" color="${INK}">${content}</mj-text>`;
};

/** The main action of an e-mail. */
export const button = (label: string, href: string) =>
  mjml`<mj-button href="${href}" background-color="${BRAND}" color="#ffffff" font-size="17px" border-radius="8px" inner-padding="14px 28px" padding="24px 25px">${label}</mj-button>`;

/** A quoted personal text (a card's message, a thank-you). */
export const quote = (text: string, signature?: string) =>
  mjml`<mj-text font-size="18px" line-height="1.5" font-style="italic" color="${INK}" container-background-color="#fbf7f0" padding="18px 25px" css-class="quote">${lines(text)}${signature ? mjml`<br><span style="font-style:normal;font-size:15px;color:${QUIET}">— ${signature}</span>` : ''}</mj-text>`;

/** Text whose line breaks show in HTML (escaped; filled into one hole). */
export const lines = (text: string): SafeHtml => new SafeHtml(text.split('\n').map((line) => asHtml(line)).join('<br>'));

/** The shop's header and footer around a body (the shop's name and address are holes: one compiled shape for any shop). */
const frame = (parts: EmailParts, shop: ShopIdentity, body: TemplateValue, words: Words) => mjml`<mjml lang="${literal(words.locale)}">
  <mj-head>
    <mj-title>${parts.subject}</mj-title>
    <mj-preview>${parts.preview}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Georgia, 'Times New Roman', serif" />
      <mj-text padding="6px 25px" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="${PAPER}" width="600px">
    <mj-section padding="28px 0 12px">
      <mj-column>
        <mj-text align="center" font-size="13px" letter-spacing="3px" color="${BRAND}" text-transform="uppercase">${shop.name}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="14px" padding="28px 0">
      <mj-column>
${body}
      </mj-column>
    </mj-section>
    <mj-section padding="18px 0 32px">
      <mj-column>
        <mj-text align="center" font-size="12px" color="${QUIET}">${footer(shop, words)}${shop.supportEmail ? mjml`<br>${supportHtml(shop.supportEmail, words)}` : ''}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

/**
 * An e-mail: the shop's header and footer around the body, compiled by MJML once per shape and
 * process (see ./compiled.ts), with its plain-text part.
 */
export async function renderEmail(parts: EmailParts): Promise<MailContent> {
  const name = parts.subject;
  const shop = parts.shop ?? DEFAULT_SHOP_IDENTITY;
  const words = wordsFor(parts.locale);
  const html = parts.body instanceof MailTemplate ? await renderTemplate(frame(parts, shop, parts.body, words), name) : await renderSource(asHtml(frame(parts, shop, parts.body, words)), name);
  const support = shop.supportEmail ? `\n${supportLine(shop.supportEmail, words)}` : '';
  return { to: parts.to, subject: parts.subject, text: `${parts.text.trim()}\n\n${footer(shop, words)}${support}\n`, html };
}
