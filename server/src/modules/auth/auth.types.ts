import { Field, InputType, ObjectType } from 'type-graphql';
import { User } from './user.entity.js';

@InputType({ description: 'A new customer account.' })
export class RegisterInput {
  @Field(() => String, { description: "3 to 32 characters: letters, digits, '_', '.' or '-'." })
  username!: string;

  @Field(() => String, { description: 'One e-mail address, up to 254 characters; kept in lower case. A confirmation link is e-mailed to it.' })
  email!: string;

  @Field(() => String, { description: 'At least 8 characters.' })
  password!: string;
}

@InputType({ description: 'Who signs in, and how long the browser stays signed in.' })
export class LoginInput {
  @Field(() => String, { description: 'The username (or the e-mail address).' })
  username!: string;

  @Field(() => String, { description: "The account's password." })
  password!: string;

  @Field(() => Boolean, { nullable: true, description: 'Keep me signed in: the browser also gets the `session` cookie that signs it in again in a new tab (30 days).' })
  remember?: boolean | null;
}

@InputType({ description: 'A new password for the signed-in account.' })
export class ChangePasswordInput {
  @Field(() => String, { description: 'At least 8 characters.' })
  newPassword!: string;

  @Field(() => String, { nullable: true, description: 'The password as it is now. May be left out only with a session issued in the last 10 minutes (else REAUTHENTICATE); a wrong one is BAD_USER_INPUT on this field, counted as a failed login.' })
  currentPassword?: string | null;
}

@ObjectType({ description: 'The account just registered. It is not signed in: call `login` next.' })
export class RegisterPayload {
  @Field(() => String, { description: 'What was done, in words for the person (it names the address the confirmation link went to).' })
  message!: string;

  @Field(() => User, { description: 'The new account (role CUSTOMER).' })
  user!: User;
}

@ObjectType({ description: 'A session just begun: its token and who it signs in.' })
export class AuthPayload {
  @Field(() => String, { description: 'The signed session token (a JWT) to send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => User, { description: 'The signed-in user.' })
  user!: User;
}

@ObjectType({ description: 'A password changed: every earlier session ended, and a fresh token for this one.' })
export class ChangePasswordPayload {
  @Field(() => String, { description: 'What was done, in words for the person.' })
  message!: string;

  @Field(() => String, { description: 'A fresh token: every earlier token, this caller’s included, has stopped working.' })
  token!: string;
}

@ObjectType({ description: 'What was done, in words for the person who asked.' })
export class MessagePayload {
  @Field(() => String, { description: 'A sentence to show as it is, e.g. "We have sent a link to …".' })
  message!: string;
}

@InputType({ description: '"Forgot password?": the address to send a reset link to.' })
export class RequestPasswordResetInput {
  @Field(() => String, { description: "The account's e-mail address (any case)." })
  email!: string;
}

@InputType({ description: 'A new password, with the token of the reset link that allows it.' })
export class ResetPasswordInput {
  @Field(() => String, { description: 'The token of the `/reset-password?token=…` link.' })
  token!: string;

  @Field(() => String, { description: 'At least 8 characters.' })
  password!: string;
}
