/**
 * The shop's domain rules, defined once: limits, text patterns, card slots and placements, slugs,
 * delivery days and the input schemas. Pure TypeScript (no Node, ORM or DOM): the server imports
 * these files directly and the web client through the `@rules` alias (web/vite.config.ts,
 * web/tsconfig.json).
 */
export * from './limits.js';
export * from './text.js';
export * from './slug.js';
export * from './card.js';
export * from './delivery.js';
export * from './schemas.js';
