import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addressKey } from '../../core/client-address.js';
import type { RequestContext } from '../../core/context.js';
import { AppError, conflict, forbidden, notFound } from '../../core/errors.js';
import { conflictOnUnique } from '../../core/db-errors.js';
import { sampleSignature } from '../../rules/index.js';
import { groupBy } from '../../core/loaders.js';
import type { RateLimits } from '../limits/index.js';
import { OrderItem } from '../orders/index.js';
import { GroupCard, GroupCardInvitation, GroupCardSignature } from './group-card.entity.js';
import { cleanSignature, cleanSignatureKey, isSigningToken, matchesHash, randomToken, sha256, type GroupCardRequest } from './group-card-rules.js';
import { closedConflict, isUnplaced, SIGNING_REFUSALS as refusals, signingStatus, SigningStatus } from './group-card-status.js';


export interface GroupCardOptions {
  limits: RateLimits;
  clock: () => Date;
  /** Keys the edit tokens given again for a repeated idempotency key (the shop's signing secret). */
  secret: string;
}

/** A group card as its signers see it. */
export interface SigningView {
  card: GroupCard;
  item: OrderItem;
  status: SigningStatus;
  signatures: GroupCardSignature[];
  /** The sample message the signing page suggests: one that suits the card's occasion. */
  sample: string;
}

/** A signature just written, with the token that changes or removes it (given to its signer only). */
export interface Signed {
  signature: GroupCardSignature;
  editToken: string;
  /** False when this was a repeat of an earlier request (a double click, a retry): nothing new was stored. */
  created: boolean;
}

export interface SignInput {
  name?: unknown;
  message?: unknown;
  /** The invitation code of the link the signer came by (`?invite=`), if any. */
  invite?: unknown;
}

/** Orders a card's signatures as they were written. */
const WRITTEN_ORDER = { createdAt: 'asc', id: 'asc' } as const;

/**
 * Signing a group card by its link: reading it, signing, and changing or removing one's own signature
 * with its edit token. Every write locks the card's row first, so that the 100th signature, the
 * deadline and a refund are each decided once, whatever arrives at the same moment.
 */
export class GroupCardService {
  constructor(private readonly options: GroupCardOptions) {}

  /** The names of what a card is for (its category, and up), nearest first; wired to the catalogue in services.ts. */
  occasionOf: ((em: EntityManager, productId: number) => Promise<string[]>) | null = null;

  // ---- checkout ------------------------------------------------------------------------------

  /** Makes a card being ordered a group card (in the checkout's transaction): its signing token and deadline. */
  attach(em: EntityManager, item: OrderItem, request: GroupCardRequest): GroupCard {
    return em.create(GroupCard, { item, signingToken: randomToken(), collectUntil: request.collectUntil });
  }

  /**
   * A card's delivery moved (in the transaction that moves it): a group card's deadline later than the
   * new delivery comes back to it, so that signing still closes when the card goes out.
   */
  async deliveryMoved(em: EntityManager, itemId: number, deliverAt: Date): Promise<void> {
    await em.nativeUpdate(GroupCard, { item: itemId, collectUntil: { $gt: deliverAt } }, { collectUntil: deliverAt });
  }

  // ---- signers ---------------------------------------------------------------------------------

  /** The card behind a signing link, with its signatures in the order they were written (404 for no card). */
  async view(ctx: RequestContext, token: unknown): Promise<SigningView> {
    const card = await this.byToken(ctx.em, token);
    const productId = card.item.product?.id;
    const signatures = await ctx.em.find(GroupCardSignature, { groupCard: card.id }, { orderBy: WRITTEN_ORDER });
    const occasions = productId !== undefined && this.occasionOf ? await this.occasionOf(ctx.em, productId) : [];
    const sample = sampleSignature(...occasions, card.item.name);
    return { card, item: card.item, status: signingStatus(card, card.item, signatures.length, this.options.clock()), signatures, sample };
  }

  /**
   * Signs the card: 201 once per signature. A request repeated with the same idempotency key gets the
   * first answer again (the same edit token); the same words sent twice from one address are stored
   * once (CONFLICT for the second). CONFLICT after the deadline, at 100 signatures and on a withdrawn
   * card; RATE_LIMITED past the signatures one address may write in an hour.
   */
  async sign(ctx: RequestContext, token: unknown, input: SignInput, rawKey?: unknown): Promise<Signed> {
    const { name, message } = cleanSignature(input);
    const key = cleanSignatureKey(rawKey);
    const card = await this.byToken(ctx.em, token);
    const clientKeyHash = sha256(`${card.id}:${addressKey(ctx.ip)}`);
    const contentHash = sha256(`${name.toLowerCase()}\n${message}`);
    const keyHash = key ? sha256(`${card.id}:${key}`) : null;
    // A repeat is answered before any limit is counted: it writes nothing.
    const repeat = keyHash ? await this.repeated(ctx.em, card, keyHash, key!, contentHash) : null;
    if (repeat) return repeat;
    const before = signingStatus(card, card.item, 0, this.options.clock());
    if (before !== SigningStatus.OPEN) throw closedConflict(before);

    const taken = await this.options.limits.take([this.options.limits.rules.signature, ctx.ip]);
    try {
      return await conflictOnUnique(
        () =>
          ctx.em.fork().transactional(async (em) => {
            const locked = await this.lock(em, card.id);
            const count = await em.count(GroupCardSignature, { groupCard: card.id });
            const status = signingStatus(locked, locked.item, count, this.options.clock());
            const again = keyHash ? await this.repeated(em, locked, keyHash, key!, contentHash) : null;
            if (again) return again;
            if (status !== SigningStatus.OPEN) throw closedConflict(status);
            if (await em.count(GroupCardSignature, { groupCard: card.id, clientKeyHash, contentHash })) throw conflict(refusals.signedAlready);
            const editToken = key ? this.editTokenFor(card.id, key) : randomToken();
            const now = this.options.clock();
            const invitation = await this.invitationOf(em, locked, input.invite);
            if (invitation && !invitation.signedAt) invitation.signedAt = now;
            const signature = em.create(GroupCardSignature, {
              groupCard: locked,
              name,
              message,
              editTokenHash: sha256(editToken),
              idempotencyKeyHash: keyHash,
              clientKeyHash,
              contentHash,
              invitation,
              createdAt: now,
              updatedAt: now,
            });
            await em.flush();
            ctx.log.info({ itemId: locked.item.id, signatureId: signature.id, signatures: count + 1 }, 'group card signed');
            return { signature, editToken, created: true };
          }),
        () => conflict(refusals.signedAlready),
      );
    } catch (error) {
      // Nothing was written: the attempt does not count against the address.
      if (error instanceof AppError && error.code === 'CONFLICT') await taken.giveBack().catch(() => undefined);
      throw error;
    }
  }

  /** Changes a signature with its edit token (FORBIDDEN with another token, nothing changed); until the deadline. */
  async update(ctx: RequestContext, token: unknown, signatureId: number, editToken: unknown, input: SignInput): Promise<GroupCardSignature> {
    const { name, message } = cleanSignature(input);
    const card = await this.byToken(ctx.em, token);
    return conflictOnUnique(
      () =>
        ctx.em.fork().transactional(async (em) => {
          const { signature } = await this.ownSignature(em, card, signatureId, editToken);
          const contentHash = sha256(`${name.toLowerCase()}\n${message}`);
          if (contentHash !== signature.contentHash && (await em.count(GroupCardSignature, { groupCard: card.id, clientKeyHash: signature.clientKeyHash, contentHash }))) {
            throw conflict(refusals.signedAlready);
          }
          signature.name = name;
          signature.message = message;
          signature.contentHash = contentHash;
          signature.updatedAt = this.options.clock();
          await em.flush();
          ctx.log.info({ itemId: card.item.id, signatureId }, 'group card signature changed by its signer');
          return signature;
        }),
      () => conflict(refusals.signedAlready),
    );
  }

  /** Removes a signature with its edit token (FORBIDDEN with another token, nothing changed); until the deadline. */
  async remove(ctx: RequestContext, token: unknown, signatureId: number, editToken: unknown): Promise<void> {
    const card = await this.byToken(ctx.em, token);
    await ctx.em.fork().transactional(async (em) => {
      const { signature } = await this.ownSignature(em, card, signatureId, editToken);
      await this.unsign(em, signature);
      ctx.log.info({ itemId: card.item.id, signatureId }, 'group card signature removed by its signer');
    });
  }

  // ---- the card and its purchaser ---------------------------------------------------------------

  /** Every signature of a card, in the order written (the delivered card shows them all). */
  /** The ids of the order items that are group cards (the orders list's "group cards" filter). */
  async itemIds(em: EntityManager): Promise<number[]> {
    const rows = await em.execute<{ item_id: number }[]>(`select item_id from group_card`);
    return rows.map((row) => row.item_id);
  }

  async signaturesOf(ctx: RequestContext, item: OrderItem): Promise<GroupCardSignature[]> {
    return ctx.em.find(GroupCardSignature, { groupCard: { item: item.id } }, { orderBy: WRITTEN_ORDER });
  }

  /** The group cards of some order items, by item id (one query). */
  async cardsOf(ctx: RequestContext, itemIds: readonly number[]): Promise<Map<number, GroupCard>> {
    if (!itemIds.length) return new Map();
    const cards = await ctx.em.find(GroupCard, { item: { $in: [...itemIds] } });
    return new Map(cards.map((card) => [card.item.id, card]));
  }

  /** The group card of an order item, batched across the items of a request. */
  cardOf(ctx: RequestContext, item: OrderItem): Promise<GroupCard | null> {
    return ctx.loader<number, GroupCard>('groupCard.byItem', (ids) => this.cardsOf(ctx, ids)).load(item.id);
  }

  /** A card's signatures, batched across the cards of a request. */
  async signaturesOfCard(ctx: RequestContext, card: GroupCard): Promise<GroupCardSignature[]> {
    const loader = ctx.loader<number, GroupCardSignature[]>('groupCard.signatures', async (ids) => {
      const rows = await ctx.em.find(GroupCardSignature, { groupCard: { $in: [...ids] } }, { orderBy: WRITTEN_ORDER });
      return groupBy(rows, (row) => row.groupCard.id);
    });
    return (await loader.load(card.id)) ?? [];
  }

  /** A card's invitations, batched across the cards of a request. */
  async invitationsOfCard(ctx: RequestContext, card: GroupCard): Promise<GroupCardInvitation[]> {
    const loader = ctx.loader<number, GroupCardInvitation[]>('groupCard.invitations', async (ids) => {
      const rows = await ctx.em.find(GroupCardInvitation, { groupCard: { $in: [...ids] } }, { orderBy: { invitedAt: 'asc', id: 'asc' } });
      return groupBy(rows, (row) => row.groupCard.id);
    });
    return (await loader.load(card.id)) ?? [];
  }

  /** Where a card's signing stands now. */
  statusOf(card: GroupCard, item: OrderItem, signatures: number): SigningStatus {
    return signingStatus(card, item, signatures, this.options.clock());
  }

  // ---- internals -------------------------------------------------------------------------------

  /** The card a signing link names, with its item and order (404 for anything else, and for an order not placed). */
  private async byToken(em: EntityManager, token: unknown): Promise<GroupCard> {
    const card = isSigningToken(token) ? await em.findOne(GroupCard, { signingToken: token }, { populate: ['item', 'item.order'] }) : null;
    if (!card || isUnplaced(card.item)) throw notFound(refusals.noCard);
    return card;
  }

  /** Locks the card's row for this transaction (signers of one card write one at a time) and reads it afresh. */
  private async lock(em: EntityManager, cardId: number): Promise<GroupCard> {
    await em.execute('select 1 from group_card where id = ? for update', [cardId]);
    return em.findOneOrFail(GroupCard, cardId, { populate: ['item', 'item.order'], refresh: true });
  }

  /** The earlier answer to a repeated idempotency key, or null; CONFLICT when the key came with other words. */
  private async repeated(em: EntityManager, card: GroupCard, keyHash: string, key: string, contentHash: string): Promise<Signed | null> {
    const earlier = await em.findOne(GroupCardSignature, { groupCard: card.id, idempotencyKeyHash: keyHash });
    if (!earlier) return null;
    if (earlier.contentHash !== contentHash && earlier.updatedAt.getTime() === earlier.createdAt.getTime()) throw conflict('This idempotency key was already used for another signature.', 'idempotencyKey');
    return { signature: earlier, editToken: this.editTokenFor(card.id, key), created: false };
  }

  /**
   * The edit token of a signature sent with an idempotency key: derived from the key with the shop's
   * secret, so that a repeat of the request gets the same token without the token being kept anywhere.
   */
  private editTokenFor(cardId: number, key: string): string {
    return crypto.createHmac('sha256', this.options.secret).update(`group-card-signature:${cardId}:${key}`).digest('base64url');
  }

  /** The invitation a signer came by, if the code names one of this card's. */
  private async invitationOf(em: EntityManager, card: GroupCard, code: unknown): Promise<GroupCardInvitation | null> {
    if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{10,32}$/.test(code)) return null;
    return em.findOne(GroupCardInvitation, { code, groupCard: card.id });
  }

  /**
   * A signature of the card, locked with its card, that the edit token opens: NOT_FOUND for another
   * card's or none, FORBIDDEN for another token, CONFLICT once signing closed.
   */
  private async ownSignature(em: EntityManager, card: GroupCard, signatureId: number, editToken: unknown): Promise<{ signature: GroupCardSignature; card: GroupCard }> {
    if (!Number.isSafeInteger(signatureId) || signatureId <= 0) throw notFound(refusals.noSignature);
    const locked = await this.lock(em, card.id);
    const signature = await em.findOne(GroupCardSignature, { id: signatureId, groupCard: card.id });
    if (!signature) throw notFound(refusals.noSignature);
    if (!matchesHash(editToken, signature.editTokenHash)) throw forbidden(refusals.otherBrowser);
    const status = signingStatus(locked, locked.item, 0, this.options.clock());
    if (status === SigningStatus.CLOSED || status === SigningStatus.WITHDRAWN) throw closedConflict(status);
    return { signature, card: locked };
  }

  /** Removes a signature; an invitation it came through counts as not signed again unless another signature came through it. */
  private async unsign(em: EntityManager, signature: GroupCardSignature): Promise<void> {
    const invitationId = signature.invitation?.id ?? null;
    em.remove(signature);
    await em.flush();
    if (invitationId !== null && !(await em.count(GroupCardSignature, { invitation: invitationId }))) {
      await em.nativeUpdate(GroupCardInvitation, { id: invitationId }, { signedAt: null });
    }
  }

  /** Exposed to the purchaser's service: removes any signature of a card (in the caller's transaction). */
  async removeAny(em: EntityManager, signature: GroupCardSignature): Promise<void> {
    await this.unsign(em, signature);
  }
}
