import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context.js';
import { MailJob, MailJobStatus } from '../mail/mail-job.entity.js';
import { OrderMailKind } from './order-emails.js';
import { OrderItem } from './order-item.entity.js';
import type { Order } from './order.entity.js';

/** Why cards' e-mails were kept back, by card: one query for a page of cards. */
export async function notDeliveredReasons(ctx: RequestContext, itemIds: readonly number[]): Promise<Map<number, string>> {
  const jobs = await ctx.em.find(MailJob, { itemId: { $in: [...itemIds] }, kind: OrderMailKind.CARD, status: MailJobStatus.WITHHELD }, { fields: ['itemId', 'lastError'], orderBy: { id: 'asc' } });
  return new Map(jobs.filter((job) => job.lastError).map((job) => [job.itemId!, job.lastError!]));
}

/** What My orders and Order Details say of a card whose e-mail was kept back on purpose. */
@Resolver(() => OrderItem)
export class CardDeliveryResolver {
  constructor(private readonly orders: { isRedacted(order: Order): boolean }) {}

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Why the card was not delivered, e.g. "Not delivered: the recipient unsubscribed" (its e-mail was withheld). Null when it went out or is still on its way, and for callers who see the confirmation page only.',
  })
  async notDeliveredReason(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<string | null> {
    if (!item.itemUrlUuid || this.orders.isRedacted(item.order)) return null;
    return ctx.loader<number, string>('item.notDelivered', (ids) => notDeliveredReasons(ctx, ids)).load(item.id);
  }
}
