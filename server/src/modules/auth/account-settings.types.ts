import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';

export { MessagePayload } from './auth.types.js';

@ObjectType({ description: "The signed-in user's own account, as Account settings shows it." })
export class Account {
  @Field(() => Int, { description: "The account's user id." })
  id!: number;

  @Field(() => String, { description: 'The username (it cannot be changed).' })
  username!: string;

  @Field(() => String, { description: 'The e-mail address in use, in lower case.' })
  email!: string;

  @Field(() => Boolean, { description: 'Whether the address was confirmed by its link. Until it is, guest orders placed with it do not join the account.' })
  emailConfirmed!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the address was confirmed; null: not yet.' })
  emailConfirmedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'A new address waiting for its link to be opened (it becomes the account’s then).' })
  pendingEmail!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the link to the pending address was sent.' })
  pendingEmailSentAt!: Date | null;

  @Field(() => Boolean, { description: 'Whether the first opening of a card of this account’s orders e-mails the purchaser ("opened" notices).' })
  notifyOpened!: boolean;

  @Field(() => GraphQLISODateTime, { description: 'When the account was created.' })
  createdAt!: Date;
}

@ObjectType({ description: 'An address confirmed (or changed) by its link.' })
export class VerifyEmailPayload {
  @Field(() => String, { description: 'What was done, in words for the person.' })
  message!: string;

  @Field(() => String, { description: 'The account’s address now.' })
  email!: string;

  @Field(() => String, { nullable: true, description: 'A fresh session token, when the link was opened by a signed-in session of the same account (its claims carry the address as it is now); the old token of that session has ended.' })
  token!: string | null;
}

@InputType({ description: 'A new e-mail address for the signed-in account, with its password.' })
export class ChangeEmailInput {
  @Field(() => String, { description: 'The new address; it becomes the account’s once the link sent to it is opened. A newer request replaces an earlier one.' })
  newEmail!: string;

  @Field(() => String, { description: 'The account’s password.' })
  password!: string;
}

@InputType({ description: 'Account settings to change; a field left out keeps its value.' })
export class UpdateAccountSettingsInput {
  @Field(() => Boolean, { nullable: true, description: 'Whether the first opening of each card e-mails the purchaser; left out keeps it.' })
  notifyOpened?: boolean | null;
}

@InputType({ description: 'The password that confirms deleting the account.' })
export class DeleteAccountInput {
  @Field(() => String, { description: 'The account’s password.' })
  password!: string;
}
