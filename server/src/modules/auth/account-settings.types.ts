import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';

export { MessagePayload } from './auth.types.js';

@ObjectType({ description: "The signed-in user's own account, as Account settings shows it." })
export class Account {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  username!: string;

  @Field(() => String)
  email!: string;

  @Field(() => Boolean, { description: 'Whether the address was confirmed by its link. Until it is, guest orders placed with it do not join the account.' })
  emailConfirmed!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  emailConfirmedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'A new address waiting for its link to be opened (it becomes the account’s then).' })
  pendingEmail!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the link to the pending address was sent.' })
  pendingEmailSentAt!: Date | null;

  @Field(() => Boolean, { description: 'Whether the first opening of a card of this account’s orders e-mails the purchaser ("opened" notices).' })
  notifyOpened!: boolean;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType()
export class VerifyEmailPayload {
  @Field(() => String)
  message!: string;

  @Field(() => String, { description: 'The account’s address now.' })
  email!: string;

  @Field(() => String, { nullable: true, description: 'A fresh session token, when the link was opened by a signed-in session of the same account (its claims carry the address as it is now); the old token of that session has ended.' })
  token!: string | null;
}

@InputType()
export class ChangeEmailInput {
  @Field(() => String)
  newEmail!: string;

  @Field(() => String, { description: 'The account’s password.' })
  password!: string;
}

@InputType()
export class UpdateAccountSettingsInput {
  @Field(() => Boolean, { nullable: true, description: 'Whether the first opening of each card e-mails the purchaser; left out keeps it.' })
  notifyOpened?: boolean | null;
}

@InputType()
export class DeleteAccountInput {
  @Field(() => String, { description: 'The account’s password.' })
  password!: string;
}
