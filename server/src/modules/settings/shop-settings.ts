import { DEFAULT_DELIVERY_HOUR, DEFAULT_SHOP_NAME, DEFAULT_SHOP_TIME_ZONE } from '../../rules/index.js';

/** The shop's logo as pages and e-mails use it: a media file's id, path and size (a plain value, kept in the read cache). */
export interface ShopLogo {
  id: number;
  filePath: string;
  thumbnailPath: string | null;
  friendlyName: string;
  width: number | null;
  height: number | null;
}

/** The announcement bar as the owner set it. */
export interface AnnouncementBar {
  enabled: boolean;
  text: string;
  link: string | null;
}

/** What shoppers see of the bar: its text and link, or nothing when it is off or empty. */
export interface Announcement {
  text: string;
  link: string | null;
}

/** The owner's settings of the shop (contract section 16), as every process reads them from the read cache. */
export interface ShopSettings {
  shopName: string;
  logo: ShopLogo | null;
  /** The id stored, even when its file has gone since (the logo is then null). */
  logoId: number | null;
  supportEmail: string | null;
  senderName: string | null;
  defaultDeliveryHour: number;
  timeZone: string;
  announcementBar: AnnouncementBar;
  /** Whether the owner ever named the shop (its e-mail then goes out under that name). */
  named: boolean;
  /** The banner of a sale running now (not a setting: the scheduled sales give it), or null. */
  saleBanner: string | null;
}


/** The keys of the `setting` table that hold them (one row each; the bar as JSON). */
export const ShopKeys = {
  name: 'shop.name',
  logoId: 'shop.logoId',
  supportEmail: 'shop.supportEmail',
  senderName: 'shop.senderName',
  deliveryHour: 'shop.deliveryHour',
  timeZone: 'shop.timeZone',
  announcement: 'shop.announcement',
} as const;

export const SHOP_KEY_PREFIX = 'shop.';

/**
 * The settings from their rows (`key` → `value`). Rows are written checked, so a value that does not
 * read (written by hand, say) falls back to its default rather than breaking every page.
 */
export function settingsFromRows(rows: ReadonlyMap<string, string>, logo: ShopLogo | null): ShopSettings {
  const hour = Number(rows.get(ShopKeys.deliveryHour));
  const logoId = Number(rows.get(ShopKeys.logoId));
  return {
    shopName: rows.get(ShopKeys.name) || DEFAULT_SHOP_NAME,
    logo,
    logoId: Number.isSafeInteger(logoId) && logoId > 0 ? logoId : null,
    supportEmail: rows.get(ShopKeys.supportEmail) || null,
    senderName: rows.get(ShopKeys.senderName) || null,
    defaultDeliveryHour: Number.isInteger(hour) && hour >= 0 && hour <= 23 && rows.has(ShopKeys.deliveryHour) ? hour : DEFAULT_DELIVERY_HOUR,
    timeZone: rows.get(ShopKeys.timeZone) || DEFAULT_SHOP_TIME_ZONE,
    announcementBar: barOf(rows.get(ShopKeys.announcement)),
    named: Boolean(rows.get(ShopKeys.name)),
    saleBanner: null,
  };
}

function barOf(json: string | undefined): AnnouncementBar {
  const off: AnnouncementBar = { enabled: false, text: '', link: null };
  if (!json) return off;
  try {
    const value = JSON.parse(json) as Partial<AnnouncementBar>;
    return { enabled: value.enabled === true, text: typeof value.text === 'string' ? value.text : '', link: typeof value.link === 'string' && value.link ? value.link : null };
  } catch {
    return off;
  }
}

/** What the bar shows: a running sale's banner (linking to the shop's sale), else the owner's announcement when it is on. */
export const announcementOf = (settings: ShopSettings): Announcement | null => {
  if (settings.saleBanner) return { text: settings.saleBanner, link: '/shop?on_sale=1' };
  const bar = settings.announcementBar;
  return bar.enabled && bar.text ? { text: bar.text, link: bar.link } : null;
};

/**
 * Who the e-mail comes from (the mail module's ShopIdentity; the composition root hands it over). The sender's display name is the one set, else the shop's name once the
 * owner named the shop; until then the configured MAIL_FROM goes out as it always did.
 */
export const identityOf = (settings: ShopSettings): { name: string; supportEmail: string | null; senderName: string | null; timeZone: string } => ({
  name: settings.shopName,
  supportEmail: settings.supportEmail,
  senderName: settings.senderName ?? (settings.named ? settings.shopName : null),
  timeZone: settings.timeZone,
});

/** What the shop's pages show of it, for everyone: its name, logo and announcement, and the defaults of a card's delivery. */
export interface PublicShop {
  name: string;
  logo: ShopLogo | null;
  announcement: Announcement | null;
  supportEmail: string | null;
  defaultDeliveryHour: number;
  timeZone: string;
}

export const publicShopOf = (settings: ShopSettings): PublicShop => ({
  name: settings.shopName,
  logo: settings.logo,
  announcement: announcementOf(settings),
  supportEmail: settings.supportEmail,
  defaultDeliveryHour: settings.defaultDeliveryHour,
  timeZone: settings.timeZone,
});
