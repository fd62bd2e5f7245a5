import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { MAX_RECIPIENTS_PER_LINE } from '../../rules/recipients.js';
import { DiscountKind } from '../orders/index.js';
import { GroupCardInput } from '../group-card/index.js';
import { MAX_MESSAGE_LENGTH, MAX_QUANTITY } from './checkout-rules.js';

@InputType({ description: 'One recipient of a card line: each gets their own card, link and e-mail.' })
export class CardRecipientInput {
  @Field(() => String, { description: "The recipient's name, one line, up to 100 characters (what `{name}` in the message becomes)." })
  name!: string;

  @Field(() => String, { description: "The recipient's e-mail address: the card goes there." })
  email!: string;
}

@InputType({ description: 'Who gets an e-card, from whom, with what message and when.' })
export class CardPersonalisationInput {
  @Field(() => String, { nullable: true, description: 'The one recipient; or give `recipients` instead.' })
  recipientName?: string | null;

  @Field(() => String, { nullable: true, description: "The one recipient's address; or give `recipients` instead." })
  recipientEmail?: string | null;

  @Field(() => [CardRecipientInput], {
    nullable: true,
    description: `Instead of recipientName and recipientEmail: 1 to ${MAX_RECIPIENTS_PER_LINE} recipients, each address once. The order then has one item per recipient (own link, state and e-mail), the line is priced per recipient, and \`{name}\` in the message becomes each one's name.`,
  })
  recipients?: CardRecipientInput[] | null;

  @Field(() => String, { description: "The sender's name as the card signs it, one line, up to 100 characters." })
  senderName!: string;

  @Field(() => String, { description: `Up to ${MAX_MESSAGE_LENGTH} characters; line breaks are kept; \`{name}\` becomes each recipient's name.` })
  message!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: today or a later day (at most a year ahead) in `timeZone`; null sends now.' })
  deliveryDate?: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM (24-hour) on deliveryDate in `timeZone`; default 09:00. Today without an hour, or at an hour gone, sends now.' })
  deliveryTime?: string | null;

  @Field(() => String, { nullable: true, description: "The shopper's IANA time zone (default UTC): the day and the hour are read there." })
  timeZone?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'A gift card line only: the amount it holds, 10 to 500 (its recipient is recipientName and recipientEmail; the message may be empty).' })
  amount?: string | null;

  @Field(() => Int, { nullable: true, description: 'A gift membership line only: the plan whose period it gives (offered on /membership); it costs the plan\'s price (its recipient is recipientName and recipientEmail; the message may be empty).' })
  planId?: number | null;

  @Field(() => GroupCardInput, { nullable: true, description: 'Makes the card a group card that others sign by its link until `collectUntil` (no later than its delivery day; without a day it goes out when signing closes).' })
  groupCard?: GroupCardInput | null;
}

@InputType({ description: 'A cart line as the browser keeps it. Prices are never sent: the server prices every line.' })
export class CartLineInput {
  @Field(() => Int, { description: 'The product bought.' })
  productId!: number;

  @Field(() => Int, { defaultValue: 1, description: `1 to ${MAX_QUANTITY}; for an e-greeting card, its number of recipients (one card each, up to ${MAX_RECIPIENTS_PER_LINE}), which placeOrder reads from the personalisation.` })
  quantity!: number;

  @Field(() => CardPersonalisationInput, { nullable: true, description: 'Required for e-greeting cards, refused for other products.' })
  personalisation?: CardPersonalisationInput | null;
}

@ObjectType({ description: 'A priced cart line.' })
export class CartQuoteLine {
  @Field(() => Int, { description: "The line's position in the lines sent." })
  index!: number;

  // product: see CartQuoteLineResolver (read only when asked for).

  @Field(() => Int, { description: 'How many (for an e-card, its recipients).' })
  quantity!: number;

  @Field(() => DecimalScalar, { description: 'The price of one, as it will be charged (a running sale and a membership applied).' })
  unitPrice!: string;

  @Field(() => DecimalScalar, { description: 'The unit price times the quantity.' })
  lineTotal!: string;

  @Field(() => String, { nullable: true, description: 'What a membership did to its price ("Included in your membership", "Members: 10 % off"); null: nothing.' })
  memberNote?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Its unit price without the membership (when it changed it).' })
  regularUnitPrice?: string | null;

  @Field(() => String, { nullable: true, description: 'A gift membership line: the name of the plan it gives.' })
  giftPlanName?: string | null;
}

@ObjectType({ description: 'A cart priced by the shop.' })
export class CartQuote {
  @Field(() => [CartQuoteLine], { description: 'The lines that could be priced, in the order sent.' })
  lines!: CartQuoteLine[];

  @Field(() => [Int], { description: 'Products of lines that were dropped because they no longer exist.' })
  droppedProductIds!: number[];

  @Field(() => DecimalScalar, { description: 'The lines together, before a discount.' })
  subtotal!: string;

  @Field(() => DecimalScalar, { description: 'What the discount takes off ("0.00" without one): the best automatic discount, or the code\'s when it takes more (they do not add up).' })
  discount!: string;

  @Field(() => String, { nullable: true, description: 'The discount code applied, as the shop spells it; null when none was given or an automatic discount takes more.' })
  discountCode!: string | null;

  @Field(() => String, { nullable: true, description: 'The discount that applies, by name: the code, or the automatic discount\'s name ("3 cards, 15 % off").' })
  discountName!: string | null;

  @Field(() => DiscountKind, { nullable: true, description: 'Which discount applies: CODE, or an automatic one (CARDS, SUBTOTAL); null: none.' })
  discountKind!: DiscountKind | null;

  @Field(() => DecimalScalar, { description: 'What will be charged: the subtotal less the discount.' })
  total!: string;

  @Field(() => Int, { description: 'How many items the lines add up to (their quantities summed).' })
  itemCount!: number;

  @Field(() => String, { nullable: true, description: "The plan that priced it, when the shopper is a member (its e-cards free, other lines at its percentage)." })
  membershipName?: string | null;
}

@ObjectType({ description: 'Whether the shop takes payments, and through which provider (the shop alone chooses it).' })
export class PaymentSetup {
  @Field(() => Boolean, { description: 'False until the shop has a payment provider: checkout answers PAYMENTS_UNAVAILABLE.' })
  available!: boolean;

  @Field(() => String, { nullable: true, description: '"test" (test cards only) or "stripe".' })
  provider!: string | null;

  @Field(() => String, { nullable: true, description: "Stripe's publishable key for the card element (Stripe only)." })
  publishableKey!: string | null;
}

@InputType({ description: 'A card payment; the shop chooses the provider. Only the last four digits are ever stored.' })
export class PaymentInput {
  @Field(() => String, { description: 'Spaces allowed. With the test provider 4242 4242 4242 4242 pays and 4000 0000 0000 0002 is declined.' })
  cardNumber!: string;

  @Field(() => String, { description: 'MM/YY' })
  expiry!: string;

  @Field(() => String, { description: 'The security code, 3 or 4 digits; never stored.' })
  cvc!: string;

  @Field(() => String, { nullable: true, description: 'The name on the card (optional; up to 100 characters).' })
  cardholderName?: string | null;
}

@InputType({ description: 'A cart to pay for and the purchaser: everything `placeOrder` needs.' })
export class PlaceOrderInput {
  @Field(() => String, { description: 'A fresh random key per checkout attempt; sending the same key again never makes a second order or charge.' })
  idempotencyKey!: string;

  @Field(() => String, { description: 'Where the receipt goes (one e-mail address). A guest’s order joins the account that later confirms this address.' })
  purchaserEmail!: string;

  @Field(() => [CartLineInput], { description: 'The cart, 1 to 50 lines; the server prices them.' })
  lines!: CartLineInput[];

  @Field(() => Boolean, { nullable: true, defaultValue: true, description: '"Tell me when my card is opened": the first opening of each card e-mails the purchaser (default true).' })
  notifyWhenOpened?: boolean | null;

  @Field(() => PaymentInput, { nullable: true, description: 'The card, for the test provider; with Stripe the card goes to Stripe from the browser and this is left out.' })
  payment?: PaymentInput | null;

  @Field(() => String, { nullable: true, description: 'A discount code; the shop prices it and counts its use.' })
  discountCode?: string | null;

  @Field(() => String, { nullable: true, description: 'The language of the page the order is placed from (en, de, fr, es; English when left out): its receipt, its cards\' e-mails, pages and reminders and its group cards\' invitations speak it. Another is BAD_USER_INPUT on locale.' })
  locale?: string | null;

  @Field(() => String, { nullable: true, description: "A gift card's code: it pays as much of the total as it holds and the card pays the rest (the card may be left out when it pays everything). One that cannot pay is BAD_USER_INPUT on giftCardCode, saying why." })
  giftCardCode?: string | null;
}
