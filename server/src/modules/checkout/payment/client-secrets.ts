import type { Order } from '../../orders/index.js';

/**
 * The client secret of a payment the browser still has to confirm (Stripe), for the answer of the
 * checkout that started it only: it is never stored and never shown on a later look-up.
 */
export const clientSecrets = new WeakMap<Order, string>();
