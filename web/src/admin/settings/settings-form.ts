import { issuesByField, shopSettingsPatchSchema } from '@rules/schemas';
import type { AdminSettingsFieldsFragment, UpdateSettingsInput } from '../../apollo/generated/graphql';

/** The logo as the form shows it: enough to draw its thumbnail and name it. */
export interface LogoChoice {
  id: number;
  filePath: string;
  thumbnailPath?: string | null;
  friendlyName: string;
}

/** The Settings screen's draft: local until saved. */
export interface SettingsDraft {
  underConstructionMode: boolean;
  shopName: string;
  logo: LogoChoice | null;
  supportEmail: string;
  senderName: string;
  defaultDeliveryHour: number;
  timeZone: string;
  announcementEnabled: boolean;
  announcementText: string;
  announcementLink: string;
}

/** A field of the form, named as the server names it in its errors (`announcement.text`). */
export type SettingsField = 'shopName' | 'logoId' | 'supportEmail' | 'senderName' | 'defaultDeliveryHour' | 'timeZone' | 'announcement.enabled' | 'announcement.text' | 'announcement.link';

export type FieldErrors = Partial<Record<SettingsField, string>>;

export function draftOf(settings: AdminSettingsFieldsFragment): SettingsDraft {
  return {
    underConstructionMode: settings.underConstructionMode,
    shopName: settings.shopName,
    logo: settings.logo ?? null,
    supportEmail: settings.supportEmail ?? '',
    senderName: settings.senderName ?? '',
    defaultDeliveryHour: settings.defaultDeliveryHour,
    timeZone: settings.timeZone,
    announcementEnabled: settings.announcementBar.enabled,
    announcementText: settings.announcementBar.text,
    announcementLink: settings.announcementBar.link ?? '',
  };
}

/** The whole draft as one update (empty optional texts clear their setting). */
export function inputOf(draft: SettingsDraft): UpdateSettingsInput {
  return {
    underConstructionMode: draft.underConstructionMode,
    shopName: draft.shopName,
    logoId: draft.logo?.id ?? null,
    supportEmail: draft.supportEmail.trim() || null,
    senderName: draft.senderName.trim() || null,
    defaultDeliveryHour: draft.defaultDeliveryHour,
    timeZone: draft.timeZone,
    announcement: { enabled: draft.announcementEnabled, text: draft.announcementText, link: draft.announcementLink.trim() || null },
  };
}

/** Every field's problem at once, by the shop's own rules (the server checks again and answers the first). */
export function checkDraft(draft: SettingsDraft): FieldErrors {
  const { underConstructionMode: _switch, ...settings } = inputOf(draft);
  const result = shopSettingsPatchSchema.safeParse(settings);
  if (result.success) return {};
  return Object.fromEntries(Object.entries(issuesByField(result.error)).map(([field, issue]) => [field, issue.message])) as FieldErrors;
}

/** The zones the shop can be in: the runtime's list, with UTC and the current one sure to be there. */
export function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older browser: the current zone and UTC only.
  }
  return [...new Set(['UTC', current, ...zones])];
}
