import { Arg, Ctx, Field, FieldResolver, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { DecimalScalar } from '../../core/decimal.js';
import { GiftCard, GiftCardEntry, GiftCardStatus } from './gift-card.entity.js';
import type { GiftCardService } from './gift-card.service.js';

@ObjectType({ description: "A page of the admin's gift cards, with what all active cards still hold." })
class GiftCardPage {
  @Field(() => [GiftCard], { description: 'The cards of this page, newest first.' })
  items!: GiftCard[];

  @Field(() => Int, { description: 'How many cards the search finds in all.' })
  totalCount!: number;

  @Field(() => DecimalScalar, { description: "What every active gift card still holds: the shop's liability." })
  outstanding!: string;
}

@ObjectType({ description: 'A gift card just issued, with its code: shown this once, never kept.' })
class IssuedGiftCard {
  @Field(() => GiftCard, { description: 'The card as it is listed from now on.' })
  giftCard!: GiftCard;

  @Field(() => String, { description: 'The code, in four groups of four (XXXX-XXXX-XXXX-XXXX).' })
  code!: string;
}

@ObjectType({ description: "A gift card's balance as its holder may see it." })
class GiftCardBalanceResult {
  @Field(() => DecimalScalar, { description: 'What can still be spent (0.00 once voided).' })
  balance!: string;

  @Field(() => String, { description: 'ISO 4217 code of its currency, e.g. "USD".' })
  currency!: string;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it stops being accepted (null: never).' })
  expiresAt!: Date | null;

  @Field(() => String, { description: 'The last four characters of the code looked up.' })
  last4!: string;

  @Field(() => DecimalScalar, { description: 'What it held at first.' })
  initialAmount!: string;

  @Field(() => GiftCardStatus, { description: 'Whether it can be spent.' })
  status!: GiftCardStatus;

  @Field(() => String, { nullable: true, description: "A bought card's design: the path of its picture under /uploads." })
  designPath!: string | null;

  @Field(() => String, { nullable: true, description: 'Who gave it (a bought card).' })
  senderName!: string | null;

  @Field(() => String, { nullable: true, description: 'Who a bought card is for; null for an issued one.' })
  recipientName!: string | null;

  @Field(() => String, { nullable: true, description: "The giver's message." })
  message!: string | null;
}

@Resolver(() => GiftCard)
export class GiftCardResolver {
  constructor(private readonly service: GiftCardService) {}

  @Allow('admin')
  @Query(() => GiftCardPage, { description: 'Gift cards, newest first; `search` finds them by the last four characters of the code or the recipient\'s address.' })
  giftCards(
    @Ctx() ctx: RequestContext,
    @Arg('search', () => String, { nullable: true, description: "The last four characters of a code, or (part of) a recipient's e-mail address." }) search?: string | null,
    @Arg('offset', () => Int, { nullable: true, description: 'How many cards to skip before this page (default 0).' }) offset?: number | null,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100 (default 25).' }) first?: number | null,
  ): Promise<GiftCardPage> {
    return this.service.list(ctx, { search, offset, first });
  }

  @Allow('admin')
  @Query(() => GiftCard, { description: 'One gift card with its ledger.' })
  giftCard(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The gift card's id." }) id: number): Promise<GiftCard> {
    return this.service.get(ctx, id);
  }

  @Allow('storefront')
  @Query(() => GiftCardBalanceResult, { description: "A gift card's balance by its code (10 look-ups an hour per client, then RATE_LIMITED; NOT_FOUND for a code no card has)." })
  giftCardBalance(
    @Ctx() ctx: RequestContext,
    @Arg('code', () => String, { description: 'The 16-character code (XXXX-XXXX-XXXX-XXXX); dashes, spaces and case do not matter.' }) code: string,
  ): Promise<GiftCardBalanceResult> {
    return this.service.balance(ctx, code);
  }

  @Allow('admin')
  @Mutation(() => IssuedGiftCard, { description: 'Issues a gift card of 1 to 1,000 with a reason (audited); the answer holds its code, shown this once.' })
  issueGiftCard(
    @Ctx() ctx: RequestContext,
    @Arg('amount', () => DecimalScalar, { description: 'What it holds, in dollars: 1 to 1,000.' }) amount: string,
    @Arg('reason', () => String, { description: 'Why it is issued (required, up to 500 characters).' }) reason: string,
  ): Promise<IssuedGiftCard> {
    return this.service.issue(ctx, { amount, reason });
  }

  @Allow('admin')
  @Mutation(() => GiftCard, { description: 'Voids a gift card with a reason (audited): its balance is gone; CONFLICT when it was voided already.' })
  voidGiftCard(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The gift card's id." }) id: number,
    @Arg('reason', () => String, { description: 'Why it is voided (required, up to 500 characters).' }) reason: string,
  ): Promise<GiftCard> {
    return this.service.void(ctx, id, reason);
  }

  @Allow('admin')
  @Mutation(() => GiftCard, { description: 'Adds to (positive) or takes from (negative) an active gift card\'s balance with a reason (audited); never below 0.' })
  adjustGiftCard(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The gift card's id." }) id: number,
    @Arg('amount', () => DecimalScalar, { description: 'The change in dollars: positive adds, negative takes away (the balance never goes below 0).' }) amount: string,
    @Arg('reason', () => String, { description: 'Why (required, up to 500 characters).' }) reason: string,
  ): Promise<GiftCard> {
    return this.service.adjust(ctx, id, { amount, reason });
  }

  @FieldResolver(() => [GiftCardEntry], { description: 'Every change of its balance, oldest first.' })
  entries(@Ctx() ctx: RequestContext, @Root() card: GiftCard): Promise<GiftCardEntry[]> {
    return this.service.entries(ctx, card);
  }
}
