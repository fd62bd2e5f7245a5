import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { OrderItem } from '../orders/index.js';
import { GroupCardInvitation, GroupCardSignature } from './group-card.entity.js';
import type { GroupCardOwnerService } from './group-card-owner.service.js';
import type { GroupCardService } from './group-card.service.js';
import { SigningStatus } from './group-card-status.js';
import { GroupCardDetails, GroupCardInvitationResult, GroupCardView, SignatureInput, SignedSignature } from './group-card.types.js';

export interface GroupCardServices {
  cards: GroupCardService;
  owners: GroupCardOwnerService;
}

/** Signing a group card by its link (anyone who has it), as `/sign/{token}` and the REST calls under `/api/sign` do. */
@Resolver(() => GroupCardView)
export class GroupCardResolver {
  constructor(private readonly services: GroupCardServices) {}

  @Allow('public')
  @Query(() => GroupCardView, { description: 'The group card behind a signing link: whom it is for, until when it is signed, and its signatures. NOT_FOUND for an unknown token.' })
  async groupCard(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The signing token of the `/sign/{token}` link (43 characters).' }) token: string): Promise<GroupCardView> {
    const { card, item, status, signatures } = await this.services.cards.view(ctx, token);
    return Object.assign(new GroupCardView(), { productName: item.name, recipientName: item.recipientName ?? '', closesAt: card.collectUntil, status, signatureCount: signatures.length, coverPath: item.card?.cover?.path ?? null, signatures });
  }

  @Allow('public')
  @Mutation(() => SignedSignature, {
    description: 'Signs a group card. The same idempotency key sent again answers the first signature (with the same edit token); the same words twice from one address are stored once. CONFLICT after the deadline, at 100 signatures and on a withdrawn card; RATE_LIMITED past 20 signatures an hour from one address.',
  })
  async signGroupCard(
    @Ctx() ctx: RequestContext,
    @Arg('token', () => String, { description: 'The signing token of the card.' }) token: string,
    @Arg('input', () => SignatureInput, { description: 'The name and the message.' }) input: SignatureInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'A fresh random key per signature (16 to 100 letters, digits, "-" or "_").' }) idempotencyKey?: string | null,
  ): Promise<SignedSignature> {
    const { signature, editToken } = await this.services.cards.sign(ctx, token, input, idempotencyKey);
    return Object.assign(new SignedSignature(), { id: signature.id, editToken, signature });
  }

  @Allow('public')
  @Mutation(() => GroupCardSignature, { description: 'Changes a signature with its edit token until the deadline. FORBIDDEN with another token (nothing changes); CONFLICT once signing closed.' })
  updateSignature(
    @Ctx() ctx: RequestContext,
    @Arg('token', () => String, { description: 'The signing token of the card.' }) token: string,
    @Arg('id', () => Int, { description: "The signature's id." }) id: number,
    @Arg('editToken', () => String, { description: 'The edit token `signGroupCard` answered.' }) editToken: string,
    @Arg('input', () => SignatureInput, { description: 'The name and the message as they should be.' }) input: SignatureInput,
  ): Promise<GroupCardSignature> {
    return this.services.cards.update(ctx, token, id, editToken, input);
  }

  @Allow('public')
  @Mutation(() => Boolean, { description: 'Removes a signature with its edit token until the deadline. FORBIDDEN with another token (nothing changes); CONFLICT once signing closed.' })
  async removeSignature(
    @Ctx() ctx: RequestContext,
    @Arg('token', () => String, { description: 'The signing token of the card.' }) token: string,
    @Arg('id', () => Int, { description: "The signature's id." }) id: number,
    @Arg('editToken', () => String, { description: 'The edit token `signGroupCard` answered.' }) editToken: string,
  ): Promise<boolean> {
    await this.services.cards.remove(ctx, token, id, editToken);
    return true;
  }

  @Allow('storefront')
  @Mutation(() => GroupCardDetails, { description: "Removes any signature of one of the caller's group cards, also after the deadline. Its purchaser, or admins (the change is audited); FORBIDDEN for staff." })
  removeGroupCardSignature(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: "The order's id." }) orderId: string,
    @Arg('signatureId', () => Int, { description: "The signature's id." }) signatureId: number,
  ): Promise<GroupCardDetails> {
    return this.services.owners.removeSignature(ctx, orderId, signatureId);
  }

  @Allow('storefront')
  @Mutation(() => GroupCardDetails, { description: 'Moves the signing deadline of a group card later, up to its delivery (ISO 8601). Its purchaser, or admins (the change is audited); FORBIDDEN for staff. CONFLICT once it was delivered or withdrawn.' })
  extendSigningDeadline(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: "The order's id." }) orderId: string,
    @Arg('itemId', () => Int, { description: "The group card's order line id." }) itemId: number,
    @Arg('collectUntil', () => String, { description: 'The new deadline, ISO 8601, later than the current one and no later than the delivery.' }) collectUntil: string,
  ): Promise<GroupCardDetails> {
    return this.services.owners.extend(ctx, orderId, itemId, collectUntil);
  }

  @Allow('storefront')
  @Mutation(() => GroupCardInvitationResult, { description: 'Invites addresses to sign a group card by e-mail (each address once, at most 50 per card): one invitation each, and one reminder 24 hours before the deadline to those who have not signed. Its purchaser, or admins (the change is audited); FORBIDDEN for staff.' })
  async inviteSigners(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: "The order's id." }) orderId: string,
    @Arg('itemId', () => Int, { description: "The group card's order line id." }) itemId: number,
    @Arg('emails', () => [String], { description: 'E-mail addresses, each a single address (at most 50 invited per card in all).' }) emails: string[],
  ): Promise<GroupCardInvitationResult> {
    return Object.assign(new GroupCardInvitationResult(), await this.services.owners.invite(ctx, orderId, itemId, emails));
  }
}

/** The purchaser's side of a group card, on its order item and in its details. */
@Resolver(() => GroupCardDetails)
export class GroupCardDetailsResolver {
  constructor(private readonly services: GroupCardServices) {}

  @FieldResolver(() => [GroupCardSignature], { description: 'Every signature, in the order written.' })
  signatures(@Ctx() ctx: RequestContext, @Root() details: GroupCardDetails): Promise<GroupCardSignature[]> {
    return this.services.cards.signaturesOfCard(ctx, details.card);
  }

  @FieldResolver(() => Int, { description: 'How many signatures it has.' })
  async signatureCount(@Ctx() ctx: RequestContext, @Root() details: GroupCardDetails): Promise<number> {
    return (await this.services.cards.signaturesOfCard(ctx, details.card)).length;
  }

  @FieldResolver(() => SigningStatus, { description: 'Whether it takes signatures now.' })
  async status(@Ctx() ctx: RequestContext, @Root() details: GroupCardDetails): Promise<SigningStatus> {
    return this.services.cards.statusOf(details.card, details.item, (await this.services.cards.signaturesOfCard(ctx, details.card)).length);
  }

  @FieldResolver(() => [GroupCardInvitation], { description: 'The addresses invited by e-mail, in the order invited.' })
  invitations(@Ctx() ctx: RequestContext, @Root() details: GroupCardDetails): Promise<GroupCardInvitation[]> {
    return this.services.cards.invitationsOfCard(ctx, details.card);
  }
}

@Resolver(() => OrderItem)
export class GroupCardItemResolver {
  constructor(private readonly services: GroupCardServices) {}

  @FieldResolver(() => String, { nullable: true, description: "A group card's signing token (its link is `/sign/{signingToken}`); null for other items and for anyone but the purchaser and admins." })
  async signingToken(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<string | null> {
    return (await this.services.owners.detailsOf(ctx, item))?.signingToken ?? null;
  }

  @FieldResolver(() => GroupCardDetails, { nullable: true, description: 'The group card this card is (signatures, invitations, deadline); null for other items and for anyone but the purchaser and admins.' })
  groupCard(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<GroupCardDetails | null> {
    return this.services.owners.detailsOf(ctx, item);
  }
}
