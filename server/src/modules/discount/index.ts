/** The discount module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { optionalCode } from './discount-rules.js';
export { type DiscountService } from './discount.service.js';
export type { AppliedDiscount, Basket, BasketLine, Customer } from './discount-pricing.js';
