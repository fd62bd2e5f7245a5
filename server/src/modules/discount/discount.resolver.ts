import { Arg, Ctx, Field, GraphQLISODateTime, ID, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { DecimalScalar } from '../../core/decimal.js';
import type { DiscountService } from './discount.service.js';
import { DiscountCode } from './discount-code.entity.js';

@InputType({ description: 'A discount code: give exactly one of percentOff and amountOff.' })
export class DiscountCodeInput {
  @Field(() => String, { description: '2 to 40 letters, digits, "-" or "_"; unique whatever the case.' })
  code!: string;

  @Field(() => Int, { nullable: true, description: 'A percentage off, 1 to 100 (or give amountOff).' })
  percentOff?: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'An amount off in dollars, above zero (or give percentOff); never more than the order.' })
  amountOff?: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Valid from this moment; null: at once.' })
  startsAt?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Valid until this moment, exclusive, after startsAt; null: no end.' })
  endsAt?: Date | null;

  @Field(() => Int, { nullable: true, description: 'How many orders may use it, from 1; null: no limit.' })
  maxUses?: number | null;

  @Field(() => [Int], { nullable: true, description: 'The products it takes its discount off; with categoryIds left out too, the whole order.' })
  productIds?: number[] | null;

  @Field(() => [Int], { nullable: true, description: 'The categories whose products (subcategories included) it takes its discount off.' })
  categoryIds?: number[] | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'The subtotal a cart needs for the code.' })
  minSubtotal?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Each customer (account, or purchaser e-mail address) may use it once.' })
  oncePerCustomer?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Only for a customer (account or e-mail address) without an earlier paid order.' })
  firstOrderOnly?: boolean | null;
}

@Resolver(() => DiscountCode)
export class DiscountResolver {
  constructor(private readonly service: DiscountService) {}

  @Allow('admin')
  @Query(() => [DiscountCode], { description: 'Every discount code, by code.' })
  discountCodes(@Ctx() ctx: RequestContext): Promise<DiscountCode[]> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Mutation(() => DiscountCode, { description: 'Creates a discount code; CONFLICT when the code exists in any case.' })
  createDiscountCode(@Ctx() ctx: RequestContext, @Arg('input', () => DiscountCodeInput, { description: 'The code and its rules.' }) input: DiscountCodeInput): Promise<DiscountCode> {
    return this.service.create(ctx, { ...input });
  }

  @Allow('admin')
  @Mutation(() => DiscountCode, { description: 'Changes a discount code (its uses so far are kept).' })
  updateDiscountCode(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The code's id." }) id: number,
    @Arg('input', () => DiscountCodeInput, { description: 'The code as it should be: an optional field left out is cleared.' }) input: DiscountCodeInput,
  ): Promise<DiscountCode> {
    return this.service.update(ctx, id, { ...input });
  }

  @Allow('admin')
  @Mutation(() => ID, { description: 'Deletes a discount code; orders that used it keep it. Returns the id.' })
  async deleteDiscountCode(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The code's id." }) id: number): Promise<number> {
    await this.service.delete(ctx, id);
    return id;
  }
}
