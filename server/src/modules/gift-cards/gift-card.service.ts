import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';
import { recordAudit } from '../audit/index.js';
import type { RateLimits } from '../limits/index.js';
import { drop, inLanguage, type Locale } from '../mail/index.js';
import { giftCardEmail, GIFT_CARD_KIND, type GiftCardNotice } from './gift-card-email.js';
import { codeDigest, formatGiftCardCode, newGiftCardCode, normaliseGiftCardCode } from './gift-card-codes.js';
import { GiftCard, GiftCardEntry, GiftCardEntryKind, GiftCardSource, GiftCardStatus } from './gift-card.entity.js';
import { cleanAmount, cleanReason, MAX_ISSUED } from './gift-card-rules.js';
import type { GiftCardBalance, GiftCardOptions, GiftCardPage, GiftCardPayment, PurchasedGiftCard } from './gift-card.types.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  unknown: { id: 'error.giftCard.unknown', defaultMessage: 'No gift card has this code. Check it against the e-mail or the card (letters and digits, dashes optional).' },
  voided: { id: 'error.giftCard.voided', defaultMessage: 'This gift card was voided and cannot be used.' },
  expired: { id: 'error.giftCard.expired', defaultMessage: 'This gift card has expired.' },
  empty: { id: 'error.giftCard.empty', defaultMessage: 'This gift card has no balance left.' },
});

export type { GiftCardBalance, GiftCardOptions, GiftCardPage, GiftCardPayment, PurchasedGiftCard } from './gift-card.types.js';

const PAGE_MAX = 100;

/**
 * Gift cards (contract section 18): the admin's list, issuing, voiding and adjusting (each audited
 * with its reason), the balance a holder looks up, and paying orders with them. Every change of a
 * balance locks the card's row (SELECT … FOR UPDATE) and writes its ledger entry in the same
 * transaction, so two checkouts spending one card at once take turns and never spend more than it
 * holds (the database's CHECK backs that up). Codes are never kept: a digest and the last four
 * characters are, and looking a code up costs the client's address a point (10 an hour by default).
 */
export class GiftCardService {
  private readonly clock: () => Date;
  private readonly limits: RateLimits;

  constructor(private readonly options: GiftCardOptions) {
    this.clock = options.clock;
    this.limits = options.limits;
    options.mail.register<GiftCardNotice & { to?: string }>({
      kind: GIFT_CARD_KIND,
      render: (jobs, { shop }) => Promise.all(jobs.map((job) => (job.to ? giftCardEmail(job.to, job.payload, options.baseUrl, shop) : drop()))),
      // The code is needed until the e-mail has gone; then the queue forgets it (only its digest is kept).
      eraseWhenSent: ['code'],
    });
  }

  /**
   * Issues the gift cards an order bought, in the transaction that marks it paid: one card per line,
   * each with a fresh code that goes to its recipient by e-mail (the queue keeps the code until the
   * e-mail is sent). A line whose card exists already is skipped, so settling twice issues once.
   */
  async issuePurchased(em: EntityManager, orderId: string, lines: readonly PurchasedGiftCard[], now: Date, locale?: Locale): Promise<void> {
    for (const line of lines) {
      const code = newGiftCardCode();
      const design = await this.options.designOf?.(em, line.productId).catch(() => null) ?? null;
      const [row] = await em.execute<{ id: number }[]>(
        `insert into "gift_card" ("code_digest", "last4", "initial_amount", "balance", "source", "recipient_email", "recipient_name", "sender_name", "message", "order_id", "order_item_id", "design_path")
         values (?, ?, ?, ?, 'purchased', ?, ?, ?, ?, ?, ?, ?) on conflict ("order_item_id") where "order_item_id" is not null do nothing returning "id"`,
        [codeDigest(code), code.slice(-4), line.amount, line.amount, line.recipientEmail, line.recipientName, line.senderName, line.message, orderId, line.itemId, design],
      );
      if (!row) continue;
      await em.execute(`insert into "gift_card_entry" ("gift_card_id", "kind", "amount", "balance_after", "order_id") values (?, 'issued', ?, ?, ?)`, [row.id, line.amount, line.amount, orderId]);
      const notice: GiftCardNotice = { code: formatGiftCardCode(code), amount: line.amount, recipientName: line.recipientName, senderName: line.senderName, message: line.message, ...inLanguage(locale) };
      await this.options.mail.enqueue(em, { kind: GIFT_CARD_KIND, to: line.recipientEmail, dueAt: now, subject: { kind: 'order', id: orderId }, ref: { kind: 'gift-card', id: row.id }, payload: notice });
    }
  }

  /**
   * What refunding bought gift cards does: each is voided, so its balance cannot be spent after its
   * money went back; a card spent in part already cannot be refunded (CONFLICT: adjust it instead).
   */
  async refundPurchased(em: EntityManager, itemIds: readonly number[]): Promise<void> {
    if (!itemIds.length) return;
    const cards = await em.find(GiftCard, { orderItemId: { $in: [...itemIds] } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const card of cards) {
      if (card.status === GiftCardStatus.VOIDED) continue;
      if (card.balance !== card.initialAmount) throw conflict(`The gift card ····${card.last4} was already spent in part ($${card.balance} of $${card.initialAmount} left): it cannot be refunded as bought.`);
      card.status = GiftCardStatus.VOIDED;
      card.balance = '0.00';
      em.create(GiftCardEntry, { giftCard: card, kind: GiftCardEntryKind.VOIDED, amount: fromCents(-toCents(card.initialAmount)), balanceAfter: '0.00', orderId: card.orderId, reason: 'The order that bought it was refunded.' });
    }
    await em.flush();
  }

  /** The admin's list, newest first, searched by the code's last four characters or the recipient's address. */
  async list(ctx: RequestContext, options: { search?: string | null; offset?: number | null; first?: number | null } = {}): Promise<GiftCardPage> {
    const first = Math.min(Math.max(options.first ?? 25, 1), PAGE_MAX);
    const offset = Math.max(options.offset ?? 0, 0);
    const search = options.search?.trim() ?? '';
    const where = search ? { $or: [{ last4: search.replace(/[\s-]/g, '').slice(-4).toUpperCase() }, { recipientEmail: { $ilike: `%${search.replace(/[%_\\]/g, '\\$&')}%` } }] } : {};
    const [[items, totalCount], outstanding] = await Promise.all([
      ctx.em.findAndCount(GiftCard, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first, offset }),
      this.outstanding(ctx.em),
    ]);
    return { items, totalCount, outstanding };
  }

  /** What every active gift card still holds: the shop's liability. */
  async outstanding(em: EntityManager): Promise<string> {
    const [row] = await em.execute<{ total: string | null }[]>(`select sum("balance")::text as "total" from "gift_card" where "status" = 'active' and "balance" > 0`);
    return row?.total ? fromCents(toCents(row.total)) : '0.00';
  }

  /** One gift card with its ledger (admins). */
  async get(ctx: RequestContext, id: number): Promise<GiftCard> {
    const card = await ctx.em.findOne(GiftCard, id, { populate: ['entries'] });
    if (!card) throw notFound('Gift card');
    return card;
  }

  /** The entries of a gift card, oldest first. */
  entries(ctx: RequestContext, card: GiftCard): Promise<GiftCardEntry[]> {
    return card.entries.isInitialized() ? Promise.resolve(card.entries.getItems()) : ctx.em.find(GiftCardEntry, { giftCard: card.id }, { orderBy: { id: 'asc' } });
  }

  /** Issues a gift card (an admin, with a reason): its code is answered this once and never again. */
  async issue(ctx: RequestContext, raw: { amount?: unknown; reason?: unknown }): Promise<{ giftCard: GiftCard; code: string }> {
    const amount = cleanAmount(raw.amount, 'amount', { min: '1.00', max: MAX_ISSUED });
    const reason = cleanReason(raw.reason);
    const actor = (await ctx.viewer())?.user.username ?? null;
    const code = newGiftCardCode();
    const card = await ctx.em.fork().transactional(async (em) => {
      const card = em.create(GiftCard, { codeDigest: codeDigest(code), last4: code.slice(-4), initialAmount: amount, balance: amount, source: GiftCardSource.ISSUED, reason });
      em.create(GiftCardEntry, { giftCard: card, kind: GiftCardEntryKind.ISSUED, amount, balanceAfter: amount, reason, actor });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'gift-card', id: card.id, action: 'issued', summary: `Issued gift card ····${card.last4} for $${amount}. Reason: ${reason}` });
      return card;
    });
    ctx.log.info({ giftCardId: card.id, amount }, 'gift card issued');
    return { giftCard: card, code: formatGiftCardCode(code) };
  }

  /** Voids a gift card: what it held is gone (kept in its ledger); orders it paid keep what it paid. */
  async void(ctx: RequestContext, id: number, rawReason: unknown): Promise<GiftCard> {
    const reason = cleanReason(rawReason);
    const actor = (await ctx.viewer())?.user.username ?? null;
    return ctx.em.fork().transactional(async (em) => {
      const card = await em.findOne(GiftCard, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!card) throw notFound('Gift card');
      if (card.status === GiftCardStatus.VOIDED) throw conflict('This gift card was already voided.');
      const held = card.balance;
      card.status = GiftCardStatus.VOIDED;
      card.balance = '0.00';
      em.create(GiftCardEntry, { giftCard: card, kind: GiftCardEntryKind.VOIDED, amount: fromCents(-toCents(held)), balanceAfter: '0.00', reason, actor });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'gift-card', id: card.id, action: 'voided', summary: `Voided gift card ····${card.last4} holding $${held}. Reason: ${reason}` });
      return card;
    });
  }

  /** Adds to or takes from an active gift card's balance (an admin, with a reason); never below 0. */
  async adjust(ctx: RequestContext, id: number, raw: { amount?: unknown; reason?: unknown }): Promise<GiftCard> {
    const amount = cleanAmount(raw.amount, 'amount', { min: '0.01', max: MAX_ISSUED, signed: true });
    const reason = cleanReason(raw.reason);
    const actor = (await ctx.viewer())?.user.username ?? null;
    return ctx.em.fork().transactional(async (em) => {
      const card = await em.findOne(GiftCard, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!card) throw notFound('Gift card');
      if (card.status === GiftCardStatus.VOIDED) throw conflict('A voided gift card cannot be adjusted.');
      const after = toCents(card.balance) + toCents(amount);
      if (after < 0) throw badInput(`This gift card holds $${card.balance}: it cannot lose more than that.`, 'amount');
      const before = card.balance;
      card.balance = fromCents(after);
      em.create(GiftCardEntry, { giftCard: card, kind: GiftCardEntryKind.ADJUSTED, amount, balanceAfter: card.balance, reason, actor });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'gift-card', id: card.id, action: 'adjusted', summary: `Adjusted gift card ····${card.last4} by ${toCents(amount) > 0 ? '+' : '-'}$${amount.replace('-', '')} ($${before} → $${card.balance}). Reason: ${reason}` });
      return card;
    });
  }

  /**
   * A holder's look-up of their balance. Every look-up costs the client's address a point (10 an
   * hour by default, then RATE_LIMITED): codes cannot be tried at leisure. NOT_FOUND for a code no
   * card has; a voided card answers a balance of 0.00.
   */
  async balance(ctx: RequestContext, rawCode: unknown): Promise<GiftCardBalance> {
    await this.limits.take([this.limits.rules.giftCardLookup, ctx.ip]);
    const code = normaliseGiftCardCode(rawCode);
    const card = code ? await ctx.em.findOne(GiftCard, { codeDigest: codeDigest(code) }) : null;
    if (!card) throw new AppError('NOT_FOUND', refusals.unknown);
    return { balance: card.balance, currency: card.currency, expiresAt: card.expiresAt, last4: card.last4, initialAmount: card.initialAmount, status: card.status, designPath: card.designPath, senderName: card.senderName, recipientName: card.recipientName, message: card.message };
  }

  /**
   * Spends a gift card on an order being written, in the checkout's transaction: as much of `due` as
   * it holds. The card's row stays locked until that transaction ends, so concurrent checkouts with one
   * card take turns. A code that is not a card costs the client's address a look-up point; a card
   * that cannot pay (voided, expired, empty) is BAD_USER_INPUT on `giftCardCode` with the reason.
   */
  async claim(tx: RequestContext, rawCode: string, due: string, orderId: string): Promise<GiftCardPayment> {
    const code = normaliseGiftCardCode(rawCode);
    const card = code ? await tx.em.findOne(GiftCard, { codeDigest: codeDigest(code) }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!card) {
      await this.limits.take([this.limits.rules.giftCardLookup, tx.ip]);
      throw badInput(refusals.unknown, 'giftCardCode');
    }
    if (card.status === GiftCardStatus.VOIDED) throw badInput(refusals.voided, 'giftCardCode');
    if (card.expiresAt && card.expiresAt <= this.clock()) throw badInput(refusals.expired, 'giftCardCode');
    const taken = Math.min(toCents(card.balance), toCents(due));
    if (taken <= 0) throw badInput(refusals.empty, 'giftCardCode');
    card.balance = fromCents(toCents(card.balance) - taken);
    tx.em.create(GiftCardEntry, { giftCard: card, kind: GiftCardEntryKind.REDEEMED, amount: fromCents(-taken), balanceAfter: card.balance, orderId });
    await tx.em.flush();
    return { giftCardId: card.id, last4: card.last4, amount: fromCents(taken) };
  }

  /** Gives back what an order that was never paid took (its payment failed or was abandoned), in the caller's transaction. */
  async release(em: EntityManager, orderId: string): Promise<void> {
    await this.giveBack(em, orderId, null, GiftCardEntryKind.RELEASED);
  }

  /**
   * Puts a refund of an order back on the gift card that paid it, up to what the card paid and was
   * not given back yet; answers how much went back there (the rest is the payment provider's to
   * refund). Runs in the refund's transaction.
   */
  refundOrder(em: EntityManager, orderId: string, amount: string): Promise<string> {
    return this.giveBack(em, orderId, toCents(amount), GiftCardEntryKind.REFUNDED);
  }

  /** What gift cards paid of an order and was not given back yet, per card. */
  private async owed(em: EntityManager, orderId: string): Promise<Map<number, number>> {
    const rows = await em.execute<{ gift_card_id: number; owed: string }[]>(
      `select "gift_card_id", (-sum("amount"))::text as "owed" from "gift_card_entry" where "order_id" = ? and "kind" in ('redeemed', 'released', 'refunded') group by "gift_card_id" order by "gift_card_id"`,
      [orderId],
    );
    return new Map(rows.map((row) => [Number(row.gift_card_id), toCents(row.owed)]).filter(([, owed]) => (owed as number) > 0) as [number, number][]);
  }

  private async giveBack(em: EntityManager, orderId: string, limit: number | null, kind: GiftCardEntryKind): Promise<string> {
    const owed = await this.owed(em, orderId);
    let left = limit ?? Number.POSITIVE_INFINITY;
    let given = 0;
    for (const [cardId, amount] of owed) {
      if (left <= 0) break;
      const back = Math.min(amount, left);
      const card = await em.findOneOrFail(GiftCard, cardId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // A voided card stays voided and empty: what comes back to it is recorded, and the admin decides.
      if (card.status === GiftCardStatus.ACTIVE) card.balance = fromCents(toCents(card.balance) + back);
      em.create(GiftCardEntry, { giftCard: card, kind, amount: fromCents(back), balanceAfter: card.balance, orderId });
      left -= back;
      given += back;
    }
    await em.flush();
    return fromCents(given);
  }
}
