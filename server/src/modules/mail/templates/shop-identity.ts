import { DEFAULT_SHOP_NAME } from '../../../rules/shop.js';

/**
 * Who the shop's e-mail says it comes from: the name in its header, subject lines and footer, the
 * support address in its footer, the From header's display name and the zone its times are told in.
 * The owner sets them (the settings module); the queue reads them once per batch (see `RenderEnv`).
 */
export interface ShopIdentity {
  name: string;
  /** Shown in the footer when set. */
  supportEmail: string | null;
  /** The From header's display name; null keeps the configured MAIL_FROM as it is. */
  senderName: string | null;
  /** The zone times without one of their own (a link's expiry) are told in. */
  timeZone: string;
}

/** The shop as it is before its owner changes anything: e-mails are then exactly what they always were. */
export const DEFAULT_SHOP_IDENTITY: ShopIdentity = Object.freeze({ name: DEFAULT_SHOP_NAME, supportEmail: null, senderName: null, timeZone: 'UTC' });
