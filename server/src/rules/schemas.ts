/**
 * The shapes of what clients send, as zod schemas: the server parses its input with them (errors
 * become BAD_USER_INPUT on the path, see server/src/core/input.ts) and the web's forms check
 * with the same ones. The messages are the shop's exact texts.
 *
 * The schemas live in ./schemas/, one file a feature; this file is what the server and the web
 * (`@rules/schemas`) import.
 */
export { EMAIL_MESSAGE, emailSchema, idSchema, multiLineSchema, passwordSchema, singleLineSchema, usernameSchema } from './schemas/fields.js';
export * from './schemas/cart.js';
export * from './schemas/discount.js';
export * from './schemas/issues.js';
export * from './schemas/product.js';
export * from './schemas/sale.js';
export * from './schemas/post.js';
export * from './schemas/payment.js';
export * from './schemas/settings.js';
export * from './schemas/gift-card.js';
export * from './schemas/gift-membership.js';
