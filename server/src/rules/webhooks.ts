/**
 * The shop's webhook events (contract section 19): what an endpoint can subscribe to, with what each
 * means, as the server checks them and the console offers them.
 */
export const WEBHOOK_EVENTS = [
  { type: 'order.paid', label: 'Order paid', help: 'An order was paid for (its lines and total).' },
  { type: 'order.refunded', label: 'Order refunded', help: 'An order was refunded, whole or some of its lines.' },
  { type: 'order.delivered', label: 'Order delivered', help: 'Every card of an order reached its recipient (or, without cards, its receipt went out).' },
  { type: 'card.opened', label: 'Card opened', help: 'A recipient opened their e-card for the first time.' },
  { type: 'card.replied', label: 'Card replied to', help: 'A recipient sent a thank-you from their e-card.' },
  { type: 'product.created', label: 'Product created', help: 'A product was added to the catalogue.' },
  { type: 'product.updated', label: 'Product updated', help: 'A product was changed (one at a time, in bulk, or by an undo).' },
  { type: 'product.deleted', label: 'Product deleted', help: 'A product was deleted (with its category too).' },
  { type: 'customer.created', label: 'Customer signed up', help: 'A shopper created an account.' },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENTS.map((event) => event.type);

/** The longest endpoint URL kept. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;
