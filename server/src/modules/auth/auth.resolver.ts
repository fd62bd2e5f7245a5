import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { AuthService } from './auth.service.js';
import { AuthPayload, ChangePasswordInput, ChangePasswordPayload, LoginInput, RegisterInput, RegisterPayload } from './auth.types.js';
import { User } from './user.entity.js';

@Resolver()
export class AuthResolver {
  constructor(private readonly service: AuthService) {}

  @Allow('public')
  @Query(() => User, { nullable: true, description: 'The signed-in user, or null.' })
  me(@Ctx() ctx: RequestContext): Promise<User | null> {
    return this.service.me(ctx);
  }

  @Allow('public')
  @Mutation(() => RegisterPayload, {
    description: 'Creates a customer account and e-mails a link to confirm its address. CONFLICT on `username` or `email` when taken; RATE_LIMITED past the sign-ups allowed per client address an hour.',
  })
  register(@Ctx() ctx: RequestContext, @Arg('input', () => RegisterInput, { description: 'The username, e-mail address and password.' }) input: RegisterInput): Promise<RegisterPayload> {
    return this.service.register(ctx, input);
  }

  @Allow('public')
  @Mutation(() => AuthPayload, { description: 'Signs in by username or e-mail address and answers a session token. UNAUTHENTICATED for a wrong name or password; repeated failures answer RATE_LIMITED.' })
  login(@Ctx() ctx: RequestContext, @Arg('input', () => LoginInput, { description: 'The username (or address), the password and whether to stay signed in.' }) input: LoginInput): Promise<AuthPayload> {
    return this.service.login(ctx, input);
  }

  @Allow('user')
  @Mutation(() => Boolean, { description: 'Revokes the token the request came with, and the remembered session it came from.' })
  async logout(@Ctx() ctx: RequestContext): Promise<boolean> {
    await this.service.logout(ctx);
    return true;
  }

  @Allow('user')
  @Mutation(() => Boolean, { description: 'Sign out everywhere: ends every session of the caller, on every device (this one too).' })
  async signOutEverywhere(@Ctx() ctx: RequestContext): Promise<boolean> {
    await this.service.signOutEverywhere(ctx);
    return true;
  }

  @Allow('user')
  @Mutation(() => ChangePasswordPayload, { description: "Sets a new password: every session of the account ends, and the answer carries this session's new token." })
  changePassword(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ChangePasswordInput, { description: 'The new password, and the current one unless the session is fresh.' }) input: ChangePasswordInput,
  ): Promise<ChangePasswordPayload> {
    return this.service.changePassword(ctx, input);
  }
}
