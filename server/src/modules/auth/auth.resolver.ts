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
  @Mutation(() => RegisterPayload)
  register(@Ctx() ctx: RequestContext, @Arg('input', () => RegisterInput) input: RegisterInput): Promise<RegisterPayload> {
    return this.service.register(ctx, input);
  }

  @Allow('public')
  @Mutation(() => AuthPayload, { description: 'Rate-limited: repeated failures answer RATE_LIMITED.' })
  login(@Ctx() ctx: RequestContext, @Arg('input', () => LoginInput) input: LoginInput): Promise<AuthPayload> {
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
  @Mutation(() => ChangePasswordPayload)
  changePassword(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ChangePasswordInput) input: ChangePasswordInput,
  ): Promise<ChangePasswordPayload> {
    return this.service.changePassword(ctx, input);
  }
}
