import { Arg, Ctx, Field, GraphQLISODateTime, ID, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { DecimalScalar } from '../../core/decimal.js';
import { AutomaticDiscount } from './automatic-discount.entity.js';
import type { AutomaticDiscountService } from './automatic-discount.service.js';

@InputType({ description: 'An automatic discount: give minCards and percentOff ("N or more cards: P % off the cards") or minSubtotal and amountOff ("orders from X: Y off").' })
export class AutomaticDiscountInput {
  @Field(() => String, { description: 'What shoppers see in the cart; at most 120 characters.' })
  name!: string;

  @Field(() => Int, { nullable: true, description: '1 to 1000 cards (a card line counts its recipients).' })
  minCards?: number | null;

  @Field(() => Int, { nullable: true, description: '1 to 100, off the cards.' })
  percentOff?: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'SUBTOTAL: the subtotal in dollars a cart needs (with amountOff).' })
  minSubtotal?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'SUBTOTAL: the amount off in dollars (never more than the cart).' })
  amountOff?: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Applies from this moment; null: at once.' })
  startsAt?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Applies until this moment, exclusive; null: no end.' })
  endsAt?: Date | null;
}

@Resolver(() => AutomaticDiscount)
export class AutomaticDiscountResolver {
  constructor(private readonly service: AutomaticDiscountService) {}

  @Allow('admin')
  @Query(() => [AutomaticDiscount], { description: 'Every automatic discount, by name.' })
  automaticDiscounts(@Ctx() ctx: RequestContext): Promise<AutomaticDiscount[]> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Mutation(() => AutomaticDiscount, { description: 'Creates an automatic discount; it applies to every cart that qualifies from its start.' })
  createAutomaticDiscount(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => AutomaticDiscountInput, { description: 'Its name, its kind’s two figures and when it applies.' }) input: AutomaticDiscountInput,
  ): Promise<AutomaticDiscount> {
    return this.service.create(ctx, { ...input });
  }

  @Allow('admin')
  @Mutation(() => ID, { description: 'Deletes an automatic discount; orders it applied to keep its name and amount. Returns the id.' })
  async deleteAutomaticDiscount(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The discount's id." }) id: number): Promise<number> {
    await this.service.delete(ctx, id);
    return id;
  }
}
