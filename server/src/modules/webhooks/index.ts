/**
 * The webhooks module's front door. Features tell the shop's endpoints of their changes through
 * `WebhookEvents.emit`, in the transaction of the change (they are handed the outbox by the
 * composition root, server/src/services.ts); everything else here is the module's own.
 */
export type { WebhookData, WebhookEvents } from './webhook-outbox.js';
export type { WebhookEventType } from '../../rules/webhooks.js';
