import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';

/** An e-mail that failed, or has waited long past its time (admins' "E-mail" view). */
@ObjectType({ description: 'An e-mail that failed (given up after retrying) or has waited long past its time.' })
export class EmailProblem {
  @Field(() => Int, { description: "The e-mail's id (what `retryEmails` takes)." })
  id!: number;

  @Field(() => String, { description: 'card, card-resend, receipt, receipt-resend, opened, thank-you, reminder.' })
  kind!: string;

  @Field(() => String, { description: 'failed, or queued / sending while it waits.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'Who it is for.' })
  recipient!: string | null;

  @Field(() => ID, { nullable: true, description: 'The order it belongs to.' })
  orderId!: string | null;

  @Field(() => Int, { description: 'How many sends were tried.' })
  attempts!: number;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed.' })
  lastError!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When it was due (after a failure: when it is tried next).' })
  dueAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When it was queued.' })
  createdAt!: Date;
}

@ObjectType({ description: "The admins' E-mail view: the e-mails that need a look." })
export class EmailProblems {
  @Field(() => [EmailProblem], { description: 'Failed first, then the longest waiting; at most 500.' })
  emails!: EmailProblem[];

  @Field(() => Int, { description: 'How many there are in all.' })
  totalCount!: number;

  @Field(() => Int, { description: 'Minutes past its time after which a waiting e-mail is listed.' })
  waitingAfterMinutes!: number;
}
