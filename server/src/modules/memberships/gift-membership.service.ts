import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { badInput, conflict, said } from '../../core/errors.js';
import { GIFT_MEMBERSHIP_TYPE_NAME } from '../../rules/index.js';
import { codeDigest, formatGiftCardCode, newGiftCardCode, normaliseGiftCardCode } from '../gift-cards/index.js';
import type { RateLimits } from '../limits/index.js';
import { drop, formatDay, inLanguage, type Locale, type MailQueue } from '../mail/index.js';
import { giftMembershipEmail, GIFT_MEMBERSHIP_KIND, type GiftMembershipNotice } from './gift-membership-email.js';
import { GiftMembership, GiftMembershipStatus } from './gift-membership.entity.js';
import { periodEnd } from './membership-rules.js';
import { Membership, MembershipPlan, MembershipStatus } from './membership.entity.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  unknown: { id: 'error.giftMembership.unknown', defaultMessage: 'No gift membership has this code. Check it against the e-mail (letters and digits, dashes optional).' },
  yours: { id: 'error.giftMembership.yours', defaultMessage: 'You redeemed this gift membership already: it is your membership now.' },
  redeemed: { id: 'error.giftMembership.redeemed', defaultMessage: 'This gift membership was redeemed already.' },
  member: { id: 'error.giftMembership.member', defaultMessage: 'You are a member already, until {until} at least: redeem this gift once your membership has ended, or pass it on to someone else.' },
});

/** A gift membership line of an order just paid (see issuePurchased). */
export interface PurchasedGiftMembership {
  itemId: number;
  planId: number;
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string | null;
}

export interface GiftMembershipOptions {
  clock: () => Date;
  limits: RateLimits;
  mail: MailQueue;
  baseUrl: string;
  /** MEMBERSHIP_TEST_PERIOD_SECONDS: a gift lasts this long instead of a month or a year (tests). */
  testPeriodSeconds: number | null;
  /** The first product offered of a type (the catalogue's). */
  productOfType: (ctx: RequestContext, typeName: string) => Promise<number | null>;
}

/** Provider name of a membership that was given: nothing to charge, nothing to renew. */
export const GIFT_PROVIDER = 'gift';

/**
 * Memberships given as presents (contract section 18): bought like a card for a recipient (a line of
 * the plan's price), issued when its order is paid with a code that goes to the recipient by e-mail
 * (only its digest and last four characters are kept), redeemed once by a signed-in shopper on
 * /membership: a membership of the plan for one period, which never renews or charges. Trying codes
 * costs the client's address a point (as gift card look-ups do).
 */
export class GiftMembershipService {
  constructor(private readonly options: GiftMembershipOptions) {
    options.mail.register<GiftMembershipNotice>({
      kind: GIFT_MEMBERSHIP_KIND,
      render: (jobs, { shop }) => Promise.all(jobs.map((job) => (job.to ? giftMembershipEmail(job.to, job.payload, options.baseUrl, shop) : drop()))),
      // The code is needed until the e-mail has gone; then the queue forgets it.
      eraseWhenSent: ['code'],
    });
  }

  /**
   * Issues the gift memberships an order bought, in the transaction that marks it paid: one per line,
   * each with a fresh code e-mailed to its recipient. A line issued already is skipped, so settling
   * twice issues once.
   */
  async issuePurchased(em: EntityManager, orderId: string, lines: readonly PurchasedGiftMembership[], now: Date, locale?: Locale): Promise<void> {
    for (const line of lines) {
      const code = newGiftCardCode();
      const [row] = await em.execute<{ id: number; plan_name: string; period: 'month' | 'year' }[]>(
        `with g as (
           insert into "gift_membership" ("code_digest", "last4", "plan_id", "order_id", "order_item_id", "recipient_email", "recipient_name", "sender_name", "message", "created_at")
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("order_item_id") do nothing returning "id", "plan_id")
         select g.id, p.name as plan_name, p.period from g join membership_plan p on p.id = g.plan_id`,
        [codeDigest(code), code.slice(-4), line.planId, orderId, line.itemId, line.recipientEmail, line.recipientName, line.senderName, line.message, now],
      );
      if (!row) continue;
      const notice: GiftMembershipNotice = { code: formatGiftCardCode(code), planName: row.plan_name, period: row.period, recipientName: line.recipientName, senderName: line.senderName, message: line.message, ...inLanguage(locale) };
      await this.options.mail.enqueue(em, { kind: GIFT_MEMBERSHIP_KIND, to: line.recipientEmail, dueAt: now, subject: { kind: 'order', id: orderId }, ref: { kind: 'gift-membership', id: row.id }, payload: notice });
    }
  }

  /** What refunding bought gift memberships does: each not yet redeemed is voided; a redeemed one cannot be refunded (CONFLICT). */
  async refundPurchased(em: EntityManager, itemIds: readonly number[]): Promise<void> {
    if (!itemIds.length) return;
    const gifts = await em.find(GiftMembership, { orderItemId: { $in: [...itemIds] } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const gift of gifts) {
      if (gift.status === GiftMembershipStatus.REDEEMED) throw conflict(`The gift membership ····${gift.last4} was redeemed already: it cannot be refunded.`);
      gift.status = GiftMembershipStatus.VOIDED;
    }
    await em.flush();
  }

  /**
   * Redeems a code for the signed-in shopper: a membership of the gift's plan from now for one period,
   * which does not renew. BAD_USER_INPUT on `code` for a code no gift has (or one voided), CONFLICT
   * for one redeemed already and for a shopper who is a member already.
   */
  async redeem(ctx: RequestContext, rawCode: unknown): Promise<Membership> {
    const viewer = await ctx.requireViewer();
    const userId = viewer.user.id;
    await this.options.limits.take([this.options.limits.rules.giftMembershipCode, ctx.ip]);
    const code = normaliseGiftCardCode(rawCode);
    if (!code) throw badInput(refusals.unknown, 'code');
    const now = this.options.clock();
    const membership = await ctx.em.fork().transactional(async (em) => {
      // One membership change per shopper at a time (as subscribing).
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`membership:${userId}`]);
      const gift = await em.findOne(GiftMembership, { codeDigest: codeDigest(code) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!gift || gift.status === GiftMembershipStatus.VOIDED) throw badInput(refusals.unknown, 'code');
      if (gift.status === GiftMembershipStatus.REDEEMED) throw conflict(gift.redeemedBy === userId ? refusals.yours : refusals.redeemed);
      const current = await em.findOne(Membership, { userId, status: { $in: [MembershipStatus.ACTIVE, MembershipStatus.PAST_DUE] } });
      if (current) throw conflict(said(refusals.member, { until: (locale) => formatDay(current.currentPeriodEnd, null, locale) }));
      const plan = gift.plan as MembershipPlan;
      const membership = em.create(Membership, {
        userId,
        plan,
        status: MembershipStatus.ACTIVE,
        provider: GIFT_PROVIDER,
        currentPeriodStart: now,
        currentPeriodEnd: periodEnd(now, plan.period, this.options.testPeriodSeconds),
        // A present lasts its period: at its end it ends, as a cancelled membership does.
        cancelAtPeriodEnd: true,
        giftMembershipId: gift.id,
        createdAt: now,
      });
      await em.flush();
      Object.assign(gift, { status: GiftMembershipStatus.REDEEMED, redeemedBy: userId, redeemedAt: now });
      await em.flush();
      return membership;
    });
    ctx.log.info({ membershipId: membership.id, plan: membership.plan.id }, 'gift membership redeemed');
    return membership;
  }

  /** The product that sells memberships as presents (the first offered of the type "Gift Membership"); null when the shop sells none. */
  productId(ctx: RequestContext): Promise<number | null> {
    return this.options.productOfType(ctx, GIFT_MEMBERSHIP_TYPE_NAME);
  }

  /** Who gave a membership (null: it was not a present), for its page. */
  async giverOf(ctx: RequestContext, membership: Membership): Promise<string | null> {
    if (membership.giftMembershipId === null) return null;
    const gift = await ctx.em.findOne(GiftMembership, membership.giftMembershipId);
    return gift?.senderName ?? null;
  }
}
