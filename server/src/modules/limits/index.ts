/** The limits module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { type RateLimits, type Taken } from './rate-limits.js';
export { ApiRequestLimits, type ApiCaller, type ApiQuota } from './api-request-limits.js';
