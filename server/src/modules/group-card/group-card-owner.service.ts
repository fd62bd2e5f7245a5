import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, conflict, forbidden, notFound, said, unauthenticated } from '../../core/errors.js';
import { isAdminViewer, Role } from '../../core/viewer.js';
import { collectUntilProblem, MAX_INVITATIONS } from '../../rules/index.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { OrderItem, type Order } from '../orders/index.js';
import { GroupCard, GroupCardInvitation, GroupCardSignature } from './group-card.entity.js';
import { cleanInstant, cleanInvitationEmails, randomCode } from './group-card-rules.js';
import type { GroupCardService } from './group-card.service.js';
import { isUnplaced, SigningStatus, SIGNING_REFUSALS } from './group-card-status.js';
import { GroupCardDetails } from './group-card.types.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  withdrawnOver: { id: 'error.groupCard.withdrawnOver', defaultMessage: 'This card was withdrawn: its signing is over.' },
  deliveredOver: { id: 'error.groupCard.deliveredOver', defaultMessage: 'This card has been delivered: its signing is over.' },
  later: { id: 'error.groupCard.later', defaultMessage: 'Choose a later time than the current deadline.' },
  withdrawnNobody: { id: 'error.groupCard.withdrawnNobody', defaultMessage: 'This card was withdrawn: nobody can sign it any more.' },
  closedInvite: { id: 'error.groupCard.closedInvite', defaultMessage: 'Signing has closed: extend the deadline to invite more people.' },
  tooMany: { id: 'error.groupCard.tooManyInvitations', defaultMessage: 'At most {max} addresses can be invited to one card; {left, plural, =0 {no more can be} other {# more can be}}.' },
  ownerOnly: { id: 'error.groupCard.ownerOnly', defaultMessage: "Only the card's purchaser can change it." },
  signIn: { id: 'error.groupCard.signIn', defaultMessage: 'Sign in to manage this group card.' },
});

/** What the purchaser's changes tell the e-mail side (invitations and their reminders); the queue wakes its workers when the transaction commits. */
export interface GroupCardMailHooks {
  /** New invitations, in the transaction that writes them: one e-mail each, and each one's reminder. */
  invited(em: EntityManager, card: GroupCard, invitations: GroupCardInvitation[], now: Date): Promise<void>;
  /** The deadline moved (in the transaction that moves it): reminders not sent yet move with it. */
  deadlineMoved(em: EntityManager, card: GroupCard, now: Date): Promise<void>;
}

export interface GroupCardOwnerOptions {
  cards: GroupCardService;
  clock: () => Date;
  /** Says which orders were looked up by someone who may only see their confirmation page. */
  orders: { isRedacted(order: Order): boolean };
  mail?: GroupCardMailHooks | null;
}

const OWNER_ONLY = refusals.ownerOnly;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A group card's purchaser at work: the signing link and what came of it (every signature, the
 * invited addresses), removing any signature, moving the deadline later (up to the delivery) and
 * inviting people by e-mail. The purchaser is the signed-in owner of the order, or, for an order
 * placed without an account, whoever has its order number (the confirmation page's own key, which
 * already shows the card). Admins may always, and each change an admin makes to someone else's card
 * is recorded in the audit log with it. Staff may not: group cards are none of Orders, Customers
 * and Sales, and the orders list shows staff every order's number.
 */
export class GroupCardOwnerService {
  constructor(private readonly options: GroupCardOwnerOptions) {}

  /** Whether the order was read by its purchaser or the shop (not by someone holding the confirmation page of another's account). */
  seesAsPurchaser(order: Order): boolean {
    return !this.options.orders.isRedacted(order) || order.user === null;
  }

  /** A card's group-card view for its purchaser, or null when it is none (or the caller is not its purchaser). */
  async detailsOf(ctx: RequestContext, item: OrderItem): Promise<GroupCardDetails | null> {
    if (!item.itemUrlUuid || !this.seesAsPurchaser(item.order)) return null;
    const card = await this.options.cards.cardOf(ctx, item);
    return card ? new GroupCardDetails(card, item) : null;
  }

  /** Removes any signature of one of the purchaser's group cards (also after the deadline). */
  async removeSignature(ctx: RequestContext, orderId: string, signatureId: number): Promise<GroupCardDetails> {
    const { card, item } = await ctx.em.fork().transactional(async (em) => {
      const signature = Number.isSafeInteger(signatureId) && signatureId > 0 ? await em.findOne(GroupCardSignature, { id: signatureId }, { populate: ['groupCard'] }) : null;
      if (!signature) throw notFound('Signature');
      const { card, item, byShop } = await this.purchasersCard(ctx, em, orderId, signature.groupCard.item.id);
      await this.options.cards.removeAny(em, signature);
      if (byShop) await this.audit(ctx, em, item, 'signature removed', `removed the signature of ${named(signature.name)}`);
      ctx.log.info({ itemId: item.id, signatureId, byShop }, 'group card signature removed by the purchaser');
      return { card, item };
    });
    return this.fresh(ctx, card, item);
  }

  /** Moves the deadline later, up to the card's delivery (reopening a card whose deadline has passed, until it goes out). */
  async extend(ctx: RequestContext, orderId: string, itemId: number, rawCollectUntil: unknown): Promise<GroupCardDetails> {
    const collectUntil = cleanInstant(rawCollectUntil, 'collectUntil');
    const now = this.options.clock();
    const { card, item } = await ctx.em.fork().transactional(async (em) => {
      const { card, item, byShop } = await this.purchasersCard(ctx, em, orderId, itemId);
      await em.execute('select 1 from group_card where id = ? for update', [card.id]);
      const status = this.options.cards.statusOf(card, item, 0);
      if (status === SigningStatus.WITHDRAWN) throw conflict(refusals.withdrawnOver);
      if (item.deliveredAt) throw conflict(refusals.deliveredOver);
      if (collectUntil.getTime() <= card.collectUntil.getTime()) throw badInput(refusals.later, 'collectUntil');
      const problem = collectUntilProblem(collectUntil, item.deliverAt ?? now, now);
      if (problem) throw badInput(problem, 'collectUntil');
      const before = card.collectUntil;
      card.collectUntil = collectUntil;
      await em.flush();
      await this.options.mail?.deadlineMoved(em, card, now);
      if (byShop) await this.audit(ctx, em, item, 'deadline extended', describeChanges({ collectUntil: before }, { collectUntil }, { collectUntil: 'signing deadline' }));
      ctx.log.info({ itemId: item.id, collectUntil: collectUntil.toISOString() }, 'group card deadline extended');
      return { card, item };
    });
    return this.fresh(ctx, card, item);
  }

  /** Invites addresses to sign (each address once per card, at most 50 per card): one e-mail each. */
  async invite(ctx: RequestContext, orderId: string, itemId: number, rawEmails: unknown): Promise<{ invited: string[]; alreadyInvited: string[]; groupCard: GroupCardDetails }> {
    const emails = cleanInvitationEmails(rawEmails);
    const now = this.options.clock();
    const outcome = await ctx.em.fork().transactional(async (em) => {
      const { card, item, byShop } = await this.purchasersCard(ctx, em, orderId, itemId);
      // The card's row is locked so that two invitations at once count each other.
      await em.execute('select 1 from group_card where id = ? for update', [card.id]);
      const signatures = await em.count(GroupCardSignature, { groupCard: card.id });
      const status = this.options.cards.statusOf(card, item, signatures);
      if (status === SigningStatus.WITHDRAWN) throw conflict(refusals.withdrawnNobody);
      if (status === SigningStatus.CLOSED) throw conflict(refusals.closedInvite);
      const existing = await em.find(GroupCardInvitation, { groupCard: card.id });
      const known = new Set(existing.map((invitation) => invitation.email));
      const fresh = emails.filter((email) => !known.has(email));
      if (existing.length + fresh.length > MAX_INVITATIONS) {
        const left = Math.max(0, MAX_INVITATIONS - existing.length);
        throw badInput(said(refusals.tooMany, { max: MAX_INVITATIONS, left }), 'emails');
      }
      const invitations = fresh.map((email) => em.create(GroupCardInvitation, { groupCard: card, email, code: randomCode(), invitedAt: now }));
      await em.flush();
      if (invitations.length) await this.options.mail?.invited(em, card, invitations, now);
      if (byShop && invitations.length) await this.audit(ctx, em, item, 'signers invited', `invited ${fresh.join(', ')}`);
      ctx.log.info({ itemId: item.id, invited: invitations.length }, 'group card invitations written');
      return { card, item, invited: fresh, alreadyInvited: emails.filter((email) => known.has(email)) };
    });
    return { invited: outcome.invited, alreadyInvited: outcome.alreadyInvited, groupCard: await this.fresh(ctx, outcome.card, outcome.item) };
  }

  // ---- internals ----

  /** The details as the request's own manager reads them after a change. */
  private async fresh(ctx: RequestContext, card: GroupCard, item: OrderItem): Promise<GroupCardDetails> {
    const freshCard = await ctx.em.findOneOrFail(GroupCard, card.id, { refresh: true });
    const freshItem = await ctx.em.findOneOrFail(OrderItem, item.id, { populate: ['order'], refresh: true });
    return new GroupCardDetails(freshCard, freshItem);
  }

  /** Records an admin's change to someone else's group card, in the change's transaction. */
  private async audit(ctx: RequestContext, em: EntityManager, item: OrderItem, action: string, change: string): Promise<void> {
    await recordAudit(withEm(ctx, em), { entity: 'order', id: item.order.id, action, summary: `Group card ${named(item.name)}: ${change}` });
  }

  /**
   * One of the purchaser's group cards: NOT_FOUND when the order has no such card; FORBIDDEN for staff
   * on anyone's card but their own; for an order of an account, UNAUTHENTICATED without a sign-in and
   * FORBIDDEN for anyone but its owner and admins. `byShop`: an admin changing someone else's card
   * (the change is audited).
   */
  private async purchasersCard(ctx: RequestContext, em: EntityManager, orderId: string, itemId: number): Promise<{ card: GroupCard; item: OrderItem; byShop: boolean }> {
    if (typeof orderId !== 'string' || !UUID.test(orderId) || !Number.isSafeInteger(itemId) || itemId <= 0) throw notFound(SIGNING_REFUSALS.noCard);
    const item = await em.findOne(OrderItem, { id: itemId, order: orderId.toLowerCase() }, { populate: ['order'] });
    if (!item || isUnplaced(item)) throw notFound(SIGNING_REFUSALS.noCard);
    const viewer = await ctx.viewer();
    const owner = item.order.user !== null && viewer?.user.id === item.order.user.id;
    const admin = isAdminViewer(viewer);
    // Staff see every order's number in the orders list: that number is a guest's key, not theirs.
    if (!owner && viewer?.user.role === Role.STAFF) throw forbidden(OWNER_ONLY);
    if (item.order.user && !owner && !admin) throw viewer ? forbidden(OWNER_ONLY) : unauthenticated(refusals.signIn);
    const card = await em.findOne(GroupCard, { item: item.id });
    if (!card) throw notFound(SIGNING_REFUSALS.noCard);
    return { card, item, byShop: admin && !owner };
  }
}
