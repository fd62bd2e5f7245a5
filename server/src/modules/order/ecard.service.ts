import type { RequestContext } from '../../core/context.js';
import { OrderItem } from './order-item.entity.js';
import { OrderStatus } from './order.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Purchased e-cards as their recipients open them. */
export class EcardService {
  constructor(private readonly clock: () => Date) {}

  /**
   * The card at `/ecards/{uuid}.html`, or null when there is none (or its order was cancelled or
   * refunded). The recipient's first view is recorded; a preview (the purchaser's or an admin's) is not.
   */
  async open(ctx: RequestContext, uuid: string, options: { preview: boolean }): Promise<OrderItem | null> {
    if (!UUID.test(uuid)) return null;
    const item = await ctx.em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] });
    if (!item?.card || [OrderStatus.CANCELLED, OrderStatus.REFUNDED, OrderStatus.PENDING].includes(item.order.status)) return null;
    if (!options.preview && !item.openedAt) {
      const now = this.clock();
      // Conditional, so that two first views at once record one time.
      const updated = await ctx.em.nativeUpdate(OrderItem, { id: item.id, openedAt: null }, { openedAt: now });
      if (updated) {
        item.openedAt = now;
        ctx.log.info({ itemId: item.id, orderId: item.order.id }, 'e-card opened for the first time');
      }
    }
    return item;
  }
}
