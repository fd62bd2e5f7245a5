/** The owner's shop settings: the default shop and the bounds of each setting (no zod here: the storefront imports it). */

/** The shop's name until its owner sets one. */
export const DEFAULT_SHOP_NAME = 'Art & Song Cards';
export const MAX_SHOP_NAME = 80;
export const MAX_SENDER_NAME = 80;
export const MAX_ANNOUNCEMENT_TEXT = 200;
export const MAX_ANNOUNCEMENT_LINK = 500;
/** A card chosen for a day without an hour goes out at 09:00 unless the owner picks another default. */
export const DEFAULT_DELIVERY_HOUR = 9;
export const DEFAULT_SHOP_TIME_ZONE = 'UTC';

/** A path on this site (`/shop?category=2`) or an https address; nothing a browser would run or leave the page for quietly. */
export function isAnnouncementLink(value: string): boolean {
  if (!value || value.length > MAX_ANNOUNCEMENT_LINK || /[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  // "//host" is another site spelled as a path.
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** A delivery hour as the shop's forms write it: 9 → "09:00". */
export const hourText = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;
