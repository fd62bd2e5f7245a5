import { Field, InputType, ObjectType } from 'type-graphql';
import { User } from './user.entity.js';

@InputType()
export class RegisterInput {
  @Field(() => String, { description: "3 to 32 characters: letters, digits, '_', '.' or '-'." })
  username!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { description: 'At least 8 characters.' })
  password!: string;
}

@InputType()
export class LoginInput {
  @Field(() => String, { description: 'The username (or the e-mail address).' })
  username!: string;

  @Field(() => String)
  password!: string;

  @Field(() => Boolean, { nullable: true, description: 'Keep me signed in: the browser also gets the `session` cookie that signs it in again in a new tab (30 days).' })
  remember?: boolean | null;
}

@InputType()
export class ChangePasswordInput {
  @Field(() => String, { description: 'At least 8 characters.' })
  newPassword!: string;

  @Field(() => String, { nullable: true, description: 'The password as it is now. May be left out only with a session issued in the last 10 minutes (else REAUTHENTICATE); a wrong one is BAD_USER_INPUT on this field, counted as a failed login.' })
  currentPassword?: string | null;
}

@ObjectType()
export class RegisterPayload {
  @Field(() => String)
  message!: string;

  @Field(() => User)
  user!: User;
}

@ObjectType()
export class AuthPayload {
  @Field(() => String, { description: 'The signed session token (a JWT) to send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => User)
  user!: User;
}

@ObjectType()
export class ChangePasswordPayload {
  @Field(() => String)
  message!: string;

  @Field(() => String, { description: 'A fresh token: every earlier token, this caller’s included, has stopped working.' })
  token!: string;
}

@ObjectType({ description: 'What was done, in words for the person who asked.' })
export class MessagePayload {
  @Field(() => String)
  message!: string;
}

@InputType()
export class RequestPasswordResetInput {
  @Field(() => String)
  email!: string;
}

@InputType()
export class ResetPasswordInput {
  @Field(() => String, { description: 'The token of the `/reset-password?token=…` link.' })
  token!: string;

  @Field(() => String, { description: 'At least 8 characters.' })
  password!: string;
}
