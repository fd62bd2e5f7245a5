import { ArgsType, Field, Float, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { SALES_MAX_DAYS, type SalesBucketKind } from '../../rules/sales-range.js';

export const SalesBucket = { DAY: 'DAY', WEEK: 'WEEK' } as const satisfies Record<SalesBucketKind, SalesBucketKind>;
registerEnumType(SalesBucket, {
  name: 'SalesBucket',
  description: 'What each bar of Sales counts: a day, or a week (Monday to Sunday, cut to the range).',
  valuesConfig: {
    DAY: { description: 'One period per day of the range.' },
    WEEK: { description: 'One period per week, Monday to Sunday; the first and last are cut to the range.' },
  },
});

@ArgsType()
export class SalesSummaryArgs {
  @Field(() => String, { nullable: true, description: "The admin's IANA time zone for the days (default UTC)." })
  timeZone?: string | null;

  @Field(() => String, { nullable: true, description: 'The first day, YYYY-MM-DD in the time zone (with `to`).' })
  from?: string | null;

  @Field(() => String, { nullable: true, description: `The last day, included: on or after \`from\`, today at the latest, at most ${SALES_MAX_DAYS} days after it.` })
  to?: string | null;

  @Field(() => Int, { nullable: true, description: `Instead of from–to: the last so many days, today included (1 to ${SALES_MAX_DAYS}). Neither: the last 30 days.` })
  days?: number | null;

  @Field(() => SalesBucket, { nullable: true, description: 'Periods by day (the default) or by week.' })
  bucket?: SalesBucketKind | null;
}

@ObjectType({ description: "One day's sales, as the view showed them before ranges." })
export class SalesDay {
  @Field(() => String, { description: 'YYYY-MM-DD in the time zone asked for.' })
  day!: string;

  @Field(() => DecimalScalar, { description: "What the shop kept of the day's orders (net)." })
  revenue!: string;

  @Field(() => Int, { description: "The day's charged orders not refunded in full." })
  orders!: number;
}

@ObjectType({ description: 'An amount of the range beside the same figure of the previous range.' })
export class SalesAmount {
  @Field(() => DecimalScalar, { description: 'The amount over the range, in dollars.' })
  value!: string;

  @Field(() => DecimalScalar, { description: 'The same amount over the previous range, in dollars.' })
  previous!: string;

  @Field(() => Float, { nullable: true, description: 'Percent from the previous range, one decimal; null when the previous range had 0.' })
  change!: number | null;
}

@ObjectType({ description: 'A count of the range beside the same count of the previous range.' })
export class SalesCount {
  @Field(() => Int, { description: 'The count over the range.' })
  value!: number;

  @Field(() => Int, { description: 'The same count over the previous range.' })
  previous!: number;

  @Field(() => Float, { nullable: true, description: 'Percent from the previous range, one decimal; null when the previous range had 0.' })
  change!: number | null;
}

@ObjectType({ description: 'The totals of the range (see salesSummary for what each counts).' })
export class SalesTotals {
  @Field(() => SalesAmount, { description: 'What was charged for the orders placed in the range.' })
  gross!: SalesAmount;

  @Field(() => SalesAmount, { description: 'What was given back of those orders.' })
  refunds!: SalesAmount;

  @Field(() => SalesAmount, { description: 'Gross less refunds.' })
  net!: SalesAmount;

  @Field(() => SalesCount, { description: 'Charged orders placed in the range, wholly refunded ones included.' })
  orders!: SalesCount;

  @Field(() => SalesAmount, { description: 'Gross / orders (0.00 without orders).' })
  averageOrder!: SalesAmount;

  @Field(() => SalesCount, { description: "Cards whose e-mail first went out in the range." })
  cardsSent!: SalesCount;

  @Field(() => SalesCount, { description: 'Cards first opened in the range.' })
  cardsOpened!: SalesCount;
}

@ObjectType({ description: 'One bar of the chart: the figures of a day or of a week.' })
export class SalesPeriod {
  @Field(() => String, { description: 'Its first day, YYYY-MM-DD.' })
  from!: string;

  @Field(() => String, { description: 'Its last day, included (the same day for a day; a week cut by the range ends early).' })
  to!: string;

  @Field(() => DecimalScalar, { description: 'What was charged for the orders placed in the period.' })
  gross!: string;

  @Field(() => DecimalScalar, { description: 'What was given back of those orders.' })
  refunds!: string;

  @Field(() => DecimalScalar, { description: 'Gross less refunds.' })
  net!: string;

  @Field(() => Int, { description: 'Charged orders placed in the period, wholly refunded ones included.' })
  orders!: number;

  @Field(() => DecimalScalar, { description: 'Gross / orders (0.00 without orders).' })
  averageOrder!: string;

  @Field(() => Int, { description: 'Cards whose e-mail first went out in the period.' })
  cardsSent!: number;

  @Field(() => Int, { description: 'Cards first opened in the period.' })
  cardsOpened!: number;
}

@ObjectType({ description: 'A product among the best sellers of the range.' })
export class SalesProduct {
  @Field(() => Int, { nullable: true, description: 'Null for a product deleted since (its lines are grouped by the name they were sold under).' })
  productId!: number | null;

  @Field(() => String, { description: 'The name it was last sold under.' })
  name!: string;

  @Field(() => Int, { description: 'Units sold and not refunded.' })
  units!: number;

  @Field(() => DecimalScalar, { description: "Its lines' share of what their orders were charged, refunded lines left out." })
  revenue!: string;
}

/** What kind of promotion a line of Sales' promotions is. */
export enum SalesPromotionKind {
  SALE = 'SALE',
  CODE = 'CODE',
  AUTOMATIC = 'AUTOMATIC',
}
registerEnumType(SalesPromotionKind, {
  name: 'SalesPromotionKind',
  description: 'SALE: a scheduled sale; CODE: a discount code; AUTOMATIC: an automatic discount.',
  valuesConfig: {
    SALE: { description: 'A scheduled sale.' },
    CODE: { description: 'A discount code.' },
    AUTOMATIC: { description: 'An automatic discount.' },
  },
});

@ObjectType({ description: 'What one promotion brought in over the range.' })
export class SalesPromotion {
  @Field(() => SalesPromotionKind, { description: 'What kind of promotion it is.' })
  kind!: SalesPromotionKind;

  @Field(() => String, { description: 'The sale\'s or the automatic discount\'s name, or the code, as they were when the orders were placed.' })
  name!: string;

  @Field(() => Int, { description: 'Charged orders it applied to.' })
  orders!: number;

  @Field(() => DecimalScalar, { description: 'A sale: what the lines it priced were charged (refunded lines left out). A discount: what its orders were charged, less refunds.' })
  revenue!: string;

  @Field(() => DecimalScalar, { description: 'What shoppers saved through it: below the regular prices, or the discount taken off.' })
  saved!: string;
}

@ObjectType({ description: 'Sales over a range of days, compared with the range of the same length before it.' })
export class SalesSummary {
  @Field(() => String, { description: 'The IANA time zone the days are counted in.' })
  timeZone!: string;

  @Field(() => GraphQLISODateTime, { description: 'The start of the first day counted.' })
  since!: Date;

  @Field(() => String, { description: 'The first day of the range, YYYY-MM-DD.' })
  from!: string;

  @Field(() => String, { description: 'The last day of the range, included.' })
  to!: string;

  @Field(() => Int, { description: 'How many days the range has.' })
  dayCount!: number;

  @Field(() => SalesBucket, { description: 'Whether `periods` are days or weeks.' })
  bucket!: SalesBucketKind;

  @Field(() => String, { description: 'The first day of the previous range (as long, just before).' })
  previousFrom!: string;

  @Field(() => String, { description: 'The last day of the previous range, included (the day before `from`).' })
  previousTo!: string;

  @Field(() => SalesTotals, { description: 'The totals of the range, each beside the previous range’s.' })
  totals!: SalesTotals;

  @Field(() => [SalesPeriod], { description: 'Every day or week of the range, oldest first (empty ones are zero).' })
  periods!: SalesPeriod[];

  @Field(() => [SalesProduct], { description: 'The 10 products with the most net revenue, most first.' })
  topProducts!: SalesProduct[];

  @Field(() => [SalesPromotion], { description: 'The scheduled sales, discount codes and automatic discounts of the range\'s orders, the most revenue first (at most 20).' })
  promotions!: SalesPromotion[];

  @Field(() => [SalesDay], { description: 'Every day of the range, oldest first.', deprecationReason: 'Use periods (bucket DAY).' })
  days!: SalesDay[];

  @Field(() => DecimalScalar, { description: 'What the shop kept of the range\'s orders.', deprecationReason: 'Use totals.net.' })
  revenue!: string;

  @Field(() => Int, { description: 'Charged orders not refunded in full.', deprecationReason: 'Use totals.orders (which counts wholly refunded orders too).' })
  orders!: number;

  @Field(() => Int, { description: 'Cards delivered to their recipients in the range.', deprecationReason: 'Use totals.cardsSent.' })
  cardsSent!: number;

  @Field(() => Int, { description: 'Cards first opened in the range.', deprecationReason: 'Use totals.cardsOpened.' })
  cardsOpened!: number;
}
