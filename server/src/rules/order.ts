/**
 * An order's number as the shopper sees it: on the confirmation page, in My orders and in every
 * e-mail about the order. It is the first eight characters of the order's UUID in capitals, so the
 * admin's order search (which matches the id) finds the order from it.
 */
export const orderNumber = (orderId: string): string => orderId.slice(0, 8).toUpperCase();
