import crypto from 'node:crypto';
import type { RequestContext } from '../../core/context.js';
import { badInput, notFound, said } from '../../core/errors.js';
import { fillName } from '../../rules/recipients.js';
import type { RateLimits } from '../limits/index.js';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../rules/locales.js';
import { type MailQueue, type QueuedMail, type RenderOutcome, type ShopIdentity } from '../mail/index.js';
import { cardEmail, type CardDesign } from '../orders/index.js';
import { checkRecipients, lineRecipients, type RecipientCheck } from './card-recipients.js';
import { checkLine } from './order-draft.js';
import { pricedProducts } from './priced-products.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  chooseCard: { id: 'error.preview.chooseCard', defaultMessage: 'Choose a card to preview.' },
  noProduct: { id: 'error.preview.noProduct', defaultMessage: 'Product not found' },
  notACard: { id: 'error.preview.notACard', defaultMessage: '"{product}" is not a card: there is nothing to preview.' },
});

/**
 * A card as its first recipient will see it, before anything is bought (contract section 15): the
 * personalisation is checked exactly as placeOrder checks it, and nothing is written (no order, no
 * card, no link); the page is drawn by the e-card page's own renderer.
 */
export interface PreviewedCard {
  name: string;
  recipientName: string;
  senderName: string;
  /** The message with `{name}` and `{firstName}` filled for the first recipient. */
  message: string;
  card: CardDesign;
  deliveredAt: null;
  itemUrlUuid: null;
  /** The language of the page a test was sent from (the preview its e-mail's link opens speaks it); absent for English. */
  locale?: Locale;
}

/** What a signed test link carries (the link is the only place it is kept). */
interface PreviewPayload {
  /** The product. */
  p: number;
  /** Recipient, sender and message as previewed. */
  r: string;
  s: string;
  m: string;
  /** Seconds since the epoch after which the link opens nothing. */
  x: number;
  /** The language of the page the test was sent from, absent for English: its e-mail and the preview it opens speak it. */
  l?: Locale;
}

/** The e-mail kind of "Send a test to myself". */
export const PREVIEW_TEST_KIND = 'card-test';

/** How long the link of a test e-mail opens its preview. */
const TEST_LINK_DAYS = 7;

type TestPayload = Omit<PreviewPayload, 'x'> & { name: string };

export interface CardPreviewOptions {
  clock: () => Date;
  limits: RateLimits;
  mail: MailQueue;
  baseUrl: string;
  /** Signs the test e-mails' links. */
  secret: string;
  /** The checks placeOrder runs on every recipient (an address that said no, for one). */
  recipientChecks: readonly RecipientCheck[];
  /** The signed-in shopper's e-mail address (the auth module's). */
  viewerEmail: (ctx: RequestContext) => Promise<string>;
}

export class CardPreviews {
  private readonly key: Buffer;

  constructor(private readonly options: CardPreviewOptions) {
    this.key = crypto.createHmac('sha256', options.secret).update('card-preview').digest();
    options.mail.register<TestPayload>({
      kind: PREVIEW_TEST_KIND,
      // The message and the names leave the queue's row once the e-mail is out: the link keeps them.
      eraseWhenSent: ['r', 's', 'm'],
      render: async (jobs, { shop }) => Promise.all(jobs.map((job) => this.renderTest(job, shop))),
    });
  }

  /** The card a product and a personalisation (the shape placeOrder takes) make; BAD_USER_INPUT as placeOrder would answer. */
  async draw(ctx: RequestContext, input: { productId: unknown; personalisation: unknown }): Promise<PreviewedCard> {
    const productId = input.productId;
    if (typeof productId !== 'number' || !Number.isSafeInteger(productId) || productId <= 0) throw badInput(refusals.chooseCard, 'productId');
    const priced = (await pricedProducts(ctx.em, [productId], this.options.clock())).get(productId);
    if (!priced) throw notFound(refusals.noProduct);
    if (!priced.isCard || !priced.card) throw badInput(said(refusals.notACard, { product: priced.product.name }), 'productId');
    const line = { productId, quantity: 0, personalisation: input.personalisation };
    // One card per recipient, as the cart counts them: the preview is the first recipient's.
    const personal = checkLine({ ...line, quantity: recipientCount(input.personalisation) }, '', priced, this.options.clock())!;
    await checkRecipients(ctx, lineRecipients(line, personal, ''), this.options.recipientChecks);
    const first = personal.recipients[0]!;
    return previewOf(priced.product.name, priced.card, first.name, personal.senderName, fillName(personal.message, first.name));
  }

  /**
   * "Send a test to myself": the card's e-mail to the signed-in shopper's own address, its link
   * opening this preview for a week; five an hour per account.
   */
  async sendTest(ctx: RequestContext, input: { productId: unknown; personalisation: unknown }): Promise<{ to: string }> {
    const viewer = await ctx.requireViewer();
    const preview = await this.draw(ctx, input);
    const to = await this.options.viewerEmail(ctx);
    await this.options.limits.take([this.options.limits.rules.previewTests, String(viewer.user.id)]);
    const payload: TestPayload = { p: Number(input.productId), name: preview.name, r: preview.recipientName, s: preview.senderName, m: preview.message, ...language(ctx.locale) };
    await this.options.mail.enqueue(ctx.em, { kind: PREVIEW_TEST_KIND, to, dueAt: this.options.clock(), payload });
    return { to };
  }

  /** The preview a test e-mail's link opens; null when the link is not the shop's, or is older than a week. */
  async open(ctx: RequestContext, token: string): Promise<PreviewedCard | null> {
    const payload = this.read(token);
    if (!payload || payload.x * 1000 < this.options.clock().getTime()) return null;
    const priced = (await pricedProducts(ctx.em, [payload.p], this.options.clock())).get(payload.p);
    if (!priced?.card) return null;
    const card = previewOf(priced.product.name, priced.card, payload.r, payload.s, payload.m);
    return payload.l ? { ...card, locale: payload.l } : card;
  }

  private async renderTest(job: QueuedMail<TestPayload>, shop: ShopIdentity): Promise<RenderOutcome> {
    const { name, r, s, m, p, l } = job.payload;
    const expires = Math.floor(job.dueAt.getTime() / 1000) + TEST_LINK_DAYS * 86_400;
    const link = `${this.options.baseUrl}/ecards/preview?card=${this.sign({ p, r, s, m, x: expires, ...language(l) })}`;
    // In the language of the page it was sent from, as a card's e-mail speaks its order's.
    return cardEmail({ name, senderName: s, recipientName: r, recipientEmail: job.to, itemUrlUuid: null }, this.options.baseUrl, undefined, { link, days: TEST_LINK_DAYS }, shop, l);
  }

  private sign(payload: PreviewPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${crypto.createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  private read(token: string): PreviewPayload | null {
    const [body, signature, ...rest] = token.split('.');
    if (!body || !signature || rest.length) return null;
    const expected = crypto.createHmac('sha256', this.key).update(body).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
    try {
      const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PreviewPayload;
      if (!Number.isSafeInteger(value.p) || typeof value.r !== 'string' || typeof value.s !== 'string' || typeof value.m !== 'string' || !Number.isFinite(value.x)) return null;
      return value.l === undefined || isLocale(value.l) ? value : null;
    } catch {
      return null;
    }
  }
}

const previewOf = (name: string, card: CardDesign, recipientName: string, senderName: string, message: string): PreviewedCard => ({
  name,
  card,
  recipientName,
  senderName,
  message,
  deliveredAt: null,
  itemUrlUuid: null,
});

/** A payload's language: nothing for English, so that an English test and its link stay what they always were. */
const language = (locale: Locale | undefined): { l?: Locale } => (locale && locale !== DEFAULT_LOCALE ? { l: locale } : {});

/** The number of recipients a personalisation names (1 when it names one, or is not yet a valid one: the schema says what is wrong). */
function recipientCount(personalisation: unknown): number {
  const list = personalisation && typeof personalisation === 'object' ? (personalisation as { recipients?: unknown }).recipients : undefined;
  return Array.isArray(list) && list.length > 0 ? list.length : 1;
}
