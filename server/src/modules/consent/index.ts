/** The consent module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { listUnsubscribeHeaders, type RecipientLinks } from './recipient-consent.service.js';
