import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { UnsubscribeLink } from './consent.types.js';
import type { RecipientConsent } from './recipient-consent.service.js';

/** `/unsubscribe?token=…`: recipients saying no to the shop's e-mail. */
@Resolver()
export class ConsentResolver {
  constructor(private readonly service: RecipientConsent) {}

  @Allow('public')
  @Query(() => UnsubscribeLink, { description: 'What an unsubscribe link stands for. TOKEN_INVALID for anything the shop did not write.' })
  unsubscribeLink(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The `token` of the `/unsubscribe?token=…` link.' }) token: string): Promise<UnsubscribeLink> {
    return this.service.describe(ctx, token);
  }

  @Allow('public')
  @Mutation(() => UnsubscribeLink, { description: 'Unsubscribes the link’s address at once: no more cards, reminders or invitations. Doing it again changes nothing.' })
  unsubscribe(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The `token` of the `/unsubscribe?token=…` link.' }) token: string): Promise<UnsubscribeLink> {
    return this.service.unsubscribe(ctx, token);
  }
}
