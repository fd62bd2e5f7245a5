import { Arg, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { DecimalScalar } from '../../core/decimal.js';
import { membershipClientSecrets } from './membership-billing.js';
import { Membership, MembershipCharge, MembershipPeriod, MembershipPlan } from './membership.entity.js';
import type { MembershipService } from './membership.service.js';
import type { GiftMembershipService } from './gift-membership.service.js';

@InputType({ description: 'A membership plan (admins).' })
class MembershipPlanInput {
  @Field(() => String, { description: 'Its name, 1 to 80 characters, unique.' })
  name!: string;

  @Field(() => DecimalScalar, { description: 'What each period costs: 0.01 to 10000.' })
  price!: string;

  @Field(() => MembershipPeriod, { description: 'How long a paid period lasts.' })
  period!: MembershipPeriod;

  @Field(() => Boolean, { nullable: true, description: 'E-cards cost 0.00 for members (default true).' })
  ecardsIncluded?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Percent off albums and collections, 0 to 90 (default 0).' })
  percentOffOther?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Offered on /membership (default true).' })
  active?: boolean | null;
}

@InputType({ description: "The card a membership's first charge and its renewals are paid with (test provider; with Stripe the card goes to Stripe from the browser and no payment is sent)." })
class MembershipPaymentInput {
  @Field(() => String, { description: 'With the test provider 4242 4242 4242 4242 pays every time; 4000 0000 0000 0341 pays the first time and is declined at renewal.' })
  cardNumber!: string;

  @Field(() => String, { description: 'MM/YY' })
  expiry!: string;

  @Field(() => String, { description: 'The security code, 3 or 4 digits; never stored.' })
  cvc!: string;

  @Field(() => String, { nullable: true, description: 'The name on the card (optional).' })
  cardholderName?: string | null;
}

@ObjectType({ description: "Sales's figures of memberships." })
class MembershipFigures {
  @Field(() => Int, { description: 'Members now (active, or past due within their 7 days).' })
  activeMembers!: number;

  @Field(() => Int, { description: 'Memberships started in the period.' })
  newMembers!: number;

  @Field(() => Int, { description: 'Memberships that ended (cancelled or lapsed) in the period.' })
  endedMembers!: number;

  @Field(() => DecimalScalar, { description: 'What the memberships that renew bring in a month (a yearly plan counts a twelfth of its price).' })
  monthlyRecurringRevenue!: string;
}

const planInput = (input: MembershipPlanInput) => ({ ...input, period: input.period, ecardsIncluded: input.ecardsIncluded ?? undefined, percentOffOther: input.percentOffOther ?? undefined, active: input.active ?? undefined });

@Resolver(() => Membership)
export class MembershipResolver {
  constructor(
    private readonly service: MembershipService,
    private readonly gifts: GiftMembershipService,
  ) {}

  @Allow('storefront')
  @Query(() => [MembershipPlan], { description: 'The plans offered, cheapest first.' })
  membershipPlans(@Ctx() ctx: RequestContext): Promise<MembershipPlan[]> {
    return this.service.plans(ctx);
  }

  @Allow('storefront')
  @Query(() => Int, { nullable: true, description: 'The product that sells memberships as presents (its page offers the plans); null when the shop sells none.' })
  giftMembershipProductId(@Ctx() ctx: RequestContext): Promise<number | null> {
    return this.gifts.productId(ctx);
  }

  @Allow('admin')
  @Query(() => [MembershipPlan], { description: 'Every plan, those no longer offered too.' })
  adminMembershipPlans(@Ctx() ctx: RequestContext): Promise<MembershipPlan[]> {
    return this.service.plans(ctx, true);
  }

  @Allow('admin')
  @Mutation(() => MembershipPlan, { description: 'Creates a plan (audited); CONFLICT when the name is taken.' })
  createMembershipPlan(@Ctx() ctx: RequestContext, @Arg('input', () => MembershipPlanInput, { description: 'The plan.' }) input: MembershipPlanInput): Promise<MembershipPlan> {
    return this.service.createPlan(ctx, planInput(input));
  }

  @Allow('admin')
  @Mutation(() => MembershipPlan, { description: 'Changes a plan (audited); its members keep their price until they subscribe again.' })
  updateMembershipPlan(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The plan's id." }) id: number,
    @Arg('input', () => MembershipPlanInput, { description: 'The plan as it should be.' }) input: MembershipPlanInput,
  ): Promise<MembershipPlan> {
    return this.service.updatePlan(ctx, id, planInput(input));
  }

  @Allow('user')
  @Query(() => Membership, { nullable: true, description: "The signed-in shopper's membership: the current one, else the latest; null for none." })
  myMembership(@Ctx() ctx: RequestContext): Promise<Membership | null> {
    return this.service.mine(ctx);
  }

  @Allow('user')
  @Mutation(() => Membership, {
    description:
      "Becomes a member: charges the plan's first period (PAYMENT_DECLINED keeps nothing; CONFLICT for a member). With Stripe it answers an INCOMPLETE membership whose paymentClientSecret the browser confirms; Stripe's event then makes it ACTIVE.",
  })
  subscribe(
    @Ctx() ctx: RequestContext,
    @Arg('planId', () => Int, { description: 'The plan to join (one offered on /membership).' }) planId: number,
    @Arg('payment', () => MembershipPaymentInput, { nullable: true, description: 'The card, with the test provider; null with Stripe (the browser confirms the payment).' }) payment: MembershipPaymentInput | null,
  ): Promise<Membership> {
    return this.service.subscribe(ctx, planId, payment ? { ...payment } : null);
  }

  @Allow('user')
  @Mutation(() => Membership, { description: 'Cancels at the end of the period paid for; the benefits last until then.' })
  cancelMembership(@Ctx() ctx: RequestContext): Promise<Membership> {
    return this.service.cancel(ctx);
  }

  @Allow('user')
  @Mutation(() => Membership, { description: 'Undoes a cancellation before the period paid for ends.' })
  resumeMembership(@Ctx() ctx: RequestContext): Promise<Membership> {
    return this.service.resume(ctx);
  }

  @Allow('user')
  @Mutation(() => Membership, { description: "Redeems a gift membership's code: a membership of its plan from now for one period, which never renews or charges. BAD_USER_INPUT on `code` for a code no gift has; CONFLICT for one redeemed already, or for a shopper who is a member already; 10 tries an hour per client address." })
  redeemGiftMembership(@Ctx() ctx: RequestContext, @Arg('code', () => String, { description: 'The 16-character code from the gift e-mail; dashes, spaces and case do not matter.' }) code: string): Promise<Membership> {
    return this.gifts.redeem(ctx, code);
  }

  @Allow('staff')
  @Query(() => MembershipFigures, { description: 'Sales: members now, those who joined and left in [from, to), and the monthly recurring revenue.' })
  membershipFigures(
    @Ctx() ctx: RequestContext,
    @Arg('from', () => GraphQLISODateTime, { description: 'The start of the period, included.' }) from: Date,
    @Arg('to', () => GraphQLISODateTime, { description: 'The end of the period, excluded.' }) to: Date,
  ): Promise<MembershipFigures> {
    return this.service.figures(ctx, from, to);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Who gave it, when it was given as a present.' })
  giftFrom(@Ctx() ctx: RequestContext, @Root() membership: Membership): Promise<string | null> {
    return this.gifts.giverOf(ctx, membership);
  }

  @FieldResolver(() => String, { nullable: true, description: "Stripe: the client secret the browser confirms the first payment with; only in subscribe's answer while the membership is INCOMPLETE." })
  paymentClientSecret(@Root() membership: Membership): string | null {
    return membershipClientSecrets.get(membership) ?? null;
  }

  @FieldResolver(() => [MembershipCharge], { description: 'Its charges, newest first.' })
  charges(@Ctx() ctx: RequestContext, @Root() membership: Membership): Promise<MembershipCharge[]> {
    return this.service.charges(ctx, membership);
  }
}
