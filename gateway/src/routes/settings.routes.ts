import type { Services } from '../../../server/src/services.js';
import type { SiteSettings } from '../../../server/src/modules/settings/settings.service.js';
import { announcementOf, type ShopSettings } from '../../../server/src/modules/settings/shop-settings.js';
import { body, type RouteDef } from '../route.js';

/** The REST contract speaks of these booleans as the strings "true" and "false". */
const flag = (value: boolean) => (value ? 'true' : 'false');

/**
 * `GET /api/settings` as everyone gets it: the switch, whether the caller is an admin, the shop's
 * name and its announcement (null when off or empty). The read cache answers anonymous callers with
 * the same bytes (cached-reads.ts), so both are made here.
 */
export const publicSettingsJson = (underConstruction: boolean, isAdmin: boolean, shop: ShopSettings) => ({
  underConstructionMode: flag(underConstruction),
  isAdmin: flag(isAdmin),
  shopName: shop.shopName,
  announcement: announcementOf(shop),
});

/** What `PUT /api/settings` answers: every setting as it now is, in the shape the PUT takes. */
const adminSettingsJson = (settings: SiteSettings) => ({
  underConstructionMode: flag(settings.underConstructionMode),
  shopName: settings.shopName,
  logoId: settings.logo ? settings.logo.id : null,
  logoPath: settings.logo ? settings.logo.filePath : null,
  supportEmail: settings.supportEmail,
  senderName: settings.senderName,
  defaultDeliveryHour: settings.defaultDeliveryHour,
  timeZone: settings.timeZone,
  announcement: settings.announcementBar,
});

export function settingsRoutes({ settings }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/settings',
      access: 'public',
      async handler(ctx, _req, res) {
        const current = await settings.get(ctx);
        res.json(publicSettingsJson(current.underConstructionMode, current.isAdmin, current));
      },
    },
    {
      // `{underConstructionMode}` as the strings "true"/"false" (the original call), and/or any of
      // `{shopName, logoId, supportEmail, senderName, defaultDeliveryHour, timeZone, announcement: {enabled, text, link}}`.
      method: 'put',
      path: '/settings',
      access: 'admin',
      async handler(ctx, req, res) {
        const updated = await settings.update(ctx, body(req));
        res.json(adminSettingsJson(updated));
      },
    },
  ];
}
