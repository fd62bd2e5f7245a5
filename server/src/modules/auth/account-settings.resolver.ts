import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { AccountSettingsService, AccountView } from './account-settings.service.js';
import { Account, ChangeEmailInput, DeleteAccountInput, MessagePayload, UpdateAccountSettingsInput, VerifyEmailPayload } from './account-settings.types.js';
import type { EmailAddressService } from './email-address.service.js';

const toAccount = ({ user, pendingEmail }: AccountView): Account => ({
  id: user.id,
  username: user.username,
  email: user.email,
  emailConfirmed: user.emailConfirmedAt !== null,
  emailConfirmedAt: user.emailConfirmedAt,
  pendingEmail: pendingEmail?.email ?? null,
  pendingEmailSentAt: pendingEmail?.sentAt ?? null,
  notifyOpened: user.notifyOpened,
  createdAt: user.createdAt,
});

/** Account settings: the address (confirmation, change), the "opened" notices, the data, leaving. */
@Resolver()
export class AccountSettingsResolver {
  constructor(private readonly services: { settings: AccountSettingsService; addresses: EmailAddressService }) {}

  @Allow('user')
  @Query(() => Account, { description: "The caller's own account (Account settings)." })
  async myAccount(@Ctx() ctx: RequestContext): Promise<Account> {
    return toAccount(await this.services.settings.view(ctx));
  }

  @Allow('user')
  @Query(() => String, { description: 'Everything the shop keeps about the caller, as the JSON document `GET /api/account/export` downloads (the account, its orders with their cards and thank-you replies, its contacts).' })
  async myAccountExport(@Ctx() ctx: RequestContext): Promise<string> {
    return JSON.stringify(await this.services.settings.export(ctx), null, 2);
  }

  @Allow('user')
  @Mutation(() => Account, { description: "Changes the caller's account settings and answers the account as it is now." })
  async updateAccountSettings(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => UpdateAccountSettingsInput, { description: 'What changes.' }) input: UpdateAccountSettingsInput,
  ): Promise<Account> {
    return toAccount(await this.services.settings.update(ctx, input));
  }

  @Allow('user')
  @Mutation(() => MessagePayload, { description: 'Sends a link to the new address; the address changes once it is opened. The password is checked again (BAD_USER_INPUT on `password`).' })
  changeEmail(@Ctx() ctx: RequestContext, @Arg('input', () => ChangeEmailInput, { description: 'The new address and the password.' }) input: ChangeEmailInput): Promise<MessagePayload> {
    return this.services.addresses.requestChange(ctx, input);
  }

  @Allow('user')
  @Mutation(() => MessagePayload, { description: '"Send the link again": a new confirmation link to the account’s address (RATE_LIMITED past 5 an hour).' })
  resendEmailConfirmation(@Ctx() ctx: RequestContext): Promise<MessagePayload> {
    return this.services.addresses.resendConfirmation(ctx);
  }

  @Allow('public')
  @Mutation(() => VerifyEmailPayload, { description: 'Opens a `/verify-email?token=…` link: confirms the address (or makes a new address the account’s); its guest orders join the account. TOKEN_INVALID for a used, expired, replaced or unknown link.' })
  verifyEmail(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The `token` of the link (43 characters).' }) token: string): Promise<VerifyEmailPayload> {
    return this.services.addresses.verify(ctx, { token });
  }

  @Allow('user')
  @Mutation(() => Boolean, { description: 'Deletes the caller’s account (the password again). Its orders stay for the shop’s books without the purchaser’s name or address.' })
  async deleteAccount(@Ctx() ctx: RequestContext, @Arg('input', () => DeleteAccountInput, { description: 'The password, to confirm.' }) input: DeleteAccountInput): Promise<boolean> {
    await this.services.settings.delete(ctx, input);
    return true;
  }
}
