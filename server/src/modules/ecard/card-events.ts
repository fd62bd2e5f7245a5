import type { OrderItem } from '../orders/index.js';
import type { WebhookData } from '../webhooks/index.js';

/**
 * An e-card as the shop's webhook events show it (card.opened, card.replied): its order, its product
 * and its recipient by name; never its message or the private link it is opened by.
 */
export function cardEventData(item: OrderItem, openedAt: Date | null): WebhookData {
  return {
    id: item.id,
    order_id: item.order.id,
    product_id: item.product?.id ?? null,
    name: item.name,
    recipient_name: item.recipientName,
    delivered_at: item.deliveredAt?.toISOString() ?? null,
    opened_at: openedAt?.toISOString() ?? null,
  };
}
