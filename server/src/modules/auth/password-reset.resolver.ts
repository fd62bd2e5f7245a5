import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { MessagePayload, RequestPasswordResetInput, ResetPasswordInput } from './auth.types.js';
import type { PasswordResetService } from './password-reset.service.js';

/** "Forgot password?" and `/reset-password?token=…`. */
@Resolver()
export class PasswordResetResolver {
  constructor(private readonly service: PasswordResetService) {}

  @Allow('public')
  @Mutation(() => MessagePayload, { description: 'E-mails a reset link (1 hour, once) when an account uses the address; the answer is the same either way. RATE_LIMITED past 5 requests per client address or 3 per e-mail address an hour.' })
  requestPasswordReset(@Ctx() ctx: RequestContext, @Arg('input', () => RequestPasswordResetInput, { description: 'The address to send the link to.' }) input: RequestPasswordResetInput): Promise<MessagePayload> {
    return this.service.request(ctx, input);
  }

  @Allow('public')
  @Mutation(() => MessagePayload, { description: 'Sets the new password from a reset link; every session of the account ends. TOKEN_INVALID for a used, expired or unknown link.' })
  resetPassword(@Ctx() ctx: RequestContext, @Arg('input', () => ResetPasswordInput, { description: "The link's token and the new password." }) input: ResetPasswordInput): Promise<MessagePayload> {
    return this.service.confirm(ctx, input);
  }
}
