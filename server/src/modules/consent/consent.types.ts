import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The address an unsubscribe link stands for, masked, and whether it already said no.' })
export class UnsubscribeLink {
  @Field(() => String, { description: 'The address, masked (j•••@example.com).' })
  maskedEmail!: string;

  @Field(() => Boolean, { description: 'Whether the address has unsubscribed: it gets no cards, reminders or invitations from the shop.' })
  unsubscribed!: boolean;
}
