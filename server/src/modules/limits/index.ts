/** The limits module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { type RateLimits, type Taken } from './rate-limits.js';
