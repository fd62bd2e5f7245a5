import type { EntityManager } from '@mikro-orm/postgresql';
import type { ShopSettingsPatch } from '../../rules/schemas.js';
import { describeChanges } from '../audit/index.js';
import type { MediaFile } from '../media/index.js';
import { Setting } from './setting.entity.js';
import { ShopKeys, type ShopLogo, type ShopSettings } from './shop-settings.js';

/** The fields of an update that are shop settings (the rest of the input is the under-construction switch). */
export const SHOP_FIELDS = ['shopName', 'logoId', 'supportEmail', 'senderName', 'defaultDeliveryHour', 'timeZone', 'announcement'] as const;

export const logoOf = (file: MediaFile): ShopLogo => ({
  id: file.id,
  filePath: file.filePath,
  thumbnailPath: file.thumbnailPath ?? null,
  friendlyName: file.friendlyName,
  width: file.width ?? null,
  height: file.height ?? null,
});

/** The settings after a checked change; `logo` is the file a new `logoId` names (checked by the caller). */
export function applyPatch(before: ShopSettings, patch: ShopSettingsPatch, logo: MediaFile | null | undefined): ShopSettings {
  const pick = <K extends keyof ShopSettingsPatch & keyof ShopSettings>(key: K) => (patch[key] !== undefined ? (patch[key] as ShopSettings[K]) : before[key]);
  const bar = patch.announcement ?? {};
  return {
    shopName: pick('shopName'),
    logoId: pick('logoId'),
    logo: patch.logoId !== undefined ? (logo ? logoOf(logo) : null) : before.logo,
    supportEmail: pick('supportEmail'),
    senderName: pick('senderName'),
    defaultDeliveryHour: pick('defaultDeliveryHour'),
    timeZone: pick('timeZone'),
    saleBanner: before.saleBanner,
    announcementBar: {
      enabled: bar.enabled ?? before.announcementBar.enabled,
      text: bar.text ?? before.announcementBar.text,
      link: bar.link !== undefined ? bar.link : before.announcementBar.link,
    },
    named: before.named || patch.shopName !== undefined,
  };
}

/** The rows that differ between two states of the settings (an optional value left empty is stored as ''). */
function rowsOf(settings: ShopSettings): Record<string, string> {
  return {
    [ShopKeys.name]: settings.shopName,
    [ShopKeys.logoId]: settings.logoId === null ? '' : String(settings.logoId),
    [ShopKeys.supportEmail]: settings.supportEmail ?? '',
    [ShopKeys.senderName]: settings.senderName ?? '',
    [ShopKeys.deliveryHour]: String(settings.defaultDeliveryHour),
    [ShopKeys.timeZone]: settings.timeZone,
    [ShopKeys.announcement]: JSON.stringify(settings.announcementBar),
  };
}

/** Writes what changed, in one statement; answers whether anything did. */
export async function writeChanges(em: EntityManager, before: ShopSettings, after: ShopSettings): Promise<boolean> {
  const old = rowsOf(before);
  const changed = Object.entries(rowsOf(after)).filter(([key, value]) => old[key] !== value || (key === ShopKeys.name && after.named && !before.named));
  if (!changed.length) return false;
  await em.upsertMany(
    Setting,
    changed.map(([key, value]) => ({ key, value, updatedAt: new Date() })),
  );
  return true;
}

const flat = (settings: ShopSettings) => ({
  shopName: settings.shopName,
  logo: settings.logo ? settings.logo.friendlyName : settings.logoId,
  supportEmail: settings.supportEmail,
  senderName: settings.senderName,
  defaultDeliveryHour: settings.defaultDeliveryHour,
  timeZone: settings.timeZone,
  announcementOn: settings.announcementBar.enabled,
  announcementText: settings.announcementBar.text,
  announcementLink: settings.announcementBar.link,
});

/** The audit log's words for a change: `shop name “Art & Song Cards” → “Bloom”; announcement on false → true`. */
export function describeShopChange(before: ShopSettings, after: ShopSettings): string {
  return describeChanges(flat(before), flat(after), {
    shopName: 'shop name',
    logo: 'logo',
    supportEmail: 'support e-mail',
    senderName: 'e-mail sender name',
    defaultDeliveryHour: 'default delivery hour',
    timeZone: 'time zone',
    announcementOn: 'announcement on',
    announcementText: 'announcement',
    announcementLink: 'announcement link',
  });
}
