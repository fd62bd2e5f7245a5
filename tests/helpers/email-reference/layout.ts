/** The e-mail frame as it was before templates were compiled (commit af44690), the reference of tests/unit/email-templates.test.ts. */
import mjml2html from 'mjml';
import { html, SafeHtml } from './escape.js';

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
  /** The body in MJML (values escaped by the `html` template). */
  body: SafeHtml;
  /** The plain-text part, without the shop's footer (added here). */
  text: string;
}

const BRAND = '#b0413e';
const INK = '#2b2b2b';
const QUIET = '#7a6f66';
const PAPER = '#f4f1ec';
const FOOTER = 'Art & Song Cards — beautiful greetings without the wait.';

/** A heading of an e-mail. */
export const heading = (text: string | SafeHtml) =>
  html`<mj-text font-size="26px" line-height="1.3" color="${INK}" padding-bottom="8px">${text}</mj-text>`;

/** A paragraph of an e-mail (plain text; line breaks kept). */
export const paragraph = (text: string | SafeHtml, options: { quiet?: boolean } = {}) =>
  html`<mj-text font-size="${options.quiet ? '13px' : '16px'}" line-height="1.55" color="${options.quiet ? QUIET : INK}">${typeof text === 'string' ? lines(text) : text}</mj-text>`;

/** The main action of an e-mail. */
export const button = (label: string, href: string) =>
  html`<mj-button href="${href}" background-color="${BRAND}" color="#ffffff" font-size="17px" border-radius="8px" inner-padding="14px 28px" padding="24px 25px">${label}</mj-button>`;

/** A quoted personal text (a card's message, a thank-you). */
export const quote = (text: string, signature?: string) =>
  html`<mj-text font-size="18px" line-height="1.5" font-style="italic" color="${INK}" container-background-color="#fbf7f0" padding="18px 25px" css-class="quote">${lines(text)}${signature ? html`<br><span style="font-style:normal;font-size:15px;color:${QUIET}">— ${signature}</span>` : ''}</mj-text>`;

/** Text whose line breaks show in HTML. */
export const lines = (text: string): SafeHtml => new SafeHtml(text.split('\n').map((line) => html`${line}`.value).join('<br>'));

/** Renders an e-mail through MJML into its HTML part, with the shop's header and footer around the body. */
export async function renderEmail(parts: EmailParts): Promise<MailContent> {
  const source = html`<mjml lang="en">
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
        <mj-text align="center" font-size="13px" letter-spacing="3px" color="${BRAND}" text-transform="uppercase">Art &amp; Song Cards</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="14px" padding="28px 0">
      <mj-column>
${parts.body}
      </mj-column>
    </mj-section>
    <mj-section padding="18px 0 32px">
      <mj-column>
        <mj-text align="center" font-size="12px" color="${QUIET}">${FOOTER}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`.value;
  const result = await mjml2html(source, { validationLevel: 'strict', keepComments: false });
  if (result.errors.length) throw new Error(`E-mail template "${parts.subject}" is not valid MJML: ${result.errors.map((e) => e.formattedMessage).join('; ')}`);
  return { to: parts.to, subject: parts.subject, text: `${parts.text.trim()}\n\n${FOOTER}\n`, html: result.html };
}
