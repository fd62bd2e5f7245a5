/**
 * The shop's domain rules, defined once: limits, text patterns, card slots and placements, delivery
 * days and hours, how an order's number is written, a card's recipients, the address book's
 * occasions and the Sales view's ranges. Pure TypeScript (no Node, ORM or DOM): the server imports
 * these files directly and the web client through the `@rules` alias (web/vite.config.ts,
 * web/tsconfig.json).
 *
 * Two parts are imported on their own so that a page pays only for what it uses: `./schemas.js`
 * (the zod input schemas; `@rules/schemas` on the web) and `./slug.js` (addresses made from titles;
 * `@rules/slug`).
 */
export * from './limits.js';
export * from './text.js';
export * from './card.js';
export * from './delivery.js';
export * from './order.js';
export * from './recipients.js';
export * from './occasions.js';
export * from './group-card.js';
export * from './shop.js';
export * from './sales-range.js';
export * from './gift-card.js';
export * from './gift-membership.js';
export * from './membership.js';
export * from './webhooks.js';
export * from './api-keys.js';
export * from './locales.js';
