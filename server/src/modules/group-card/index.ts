/** The group-card module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { groupCardRequest, type GroupCardRequest } from './group-card-rules.js';
export { GroupCardInput } from './group-card.types.js';
export { signaturePagesCss, signedInside, type CardSignature } from './signature-pages.js';
