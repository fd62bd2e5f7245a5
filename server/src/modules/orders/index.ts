/** The orders module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { type CardDesign, type CardMedia } from './card-design.js';
export { deliveryInstant } from './delivery-rules.js';
export { cardIdOf, cardRef, orderIdOf, orderRef } from './order-email.types.js';
export { cardEmail, cardLink, recipientNote, senderOf, type DeliveredCard, type OrderEmails } from './order-emails.js';
export { hasChargedOrder, insertOrder, orderByKey, payOrder, payOrderQueueing, recordGiftCardPayment, giftCardItems, giftMembershipItems, type NewOrder, type NewOrderItem, type OrderCard } from './order-item-rows.js';
export { OrderItem } from './order-item.entity.js';
export { DiscountKind, Order, OrderStatus } from './order.entity.js';
export { ordersNewestFirst } from './order.service.js';
export { OrderConnection } from './order.types.js';
export { NOT_SENT_REFUNDED } from './refund.service.js';
export { emitOrders } from './order-events.js';
