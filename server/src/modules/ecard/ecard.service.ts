import type { RequestContext } from '../../core/context.js';
import { OrderItem, OrderStatus } from '../orders/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Purchased e-cards as their recipients open them. */
export class EcardService {
  /**
   * The card at `/ecards/{uuid}.html`, or null when there is none (or its order was cancelled or
   * refunded). Fetching the page records nothing (mail systems' link scanners fetch it too): the page
   * itself reports the opening once it has rendered in a browser (see EcardLoopService.recordOpening).
   */
  async open(ctx: RequestContext, uuid: string): Promise<OrderItem | null> {
    if (!UUID.test(uuid)) return null;
    const item = await ctx.em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] });
    if (!item?.card || [OrderStatus.CANCELLED, OrderStatus.REFUNDED, OrderStatus.PENDING].includes(item.order.status) || item.refundedAt) return null;
    return item;
  }
}
