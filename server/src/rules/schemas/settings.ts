/** The owner's shop settings (contract section 16): what an update may carry, field by field. */
import { z } from 'zod';
import { knownTimeZone } from '../delivery.js';
import { isSingleLine } from '../text.js';
import { isAnnouncementLink, MAX_ANNOUNCEMENT_TEXT, MAX_SENDER_NAME, MAX_SHOP_NAME } from '../shop.js';
import { asText, emailSchema, idSchema, singleLineSchema } from './fields.js';

export const SETTINGS_MESSAGES = {
  senderName: 'The sender name must be one line without < or >.',
  hour: 'The default delivery hour must be a whole hour from 0 to 23.',
  timeZone: 'Unknown time zone.',
  link: 'The link must be a path on this site (such as /shop) or an https:// address.',
  enabled: 'Say whether the announcement is on: true or false.',
} as const;

/** Empty, blank or null reads as "none". */
const none = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

const optionalEmailSchema = z.preprocess((value) => (none(value) ? null : value), emailSchema.nullable());

/** The display name of the shop's e-mail: a header value, so no line breaks and no angle brackets (they would end the name). */
const senderNameSchema = z.preprocess(
  (value) => (none(value) ? null : asText(value).trim()),
  z
    .string()
    .max(MAX_SENDER_NAME, `The sender name must be at most ${MAX_SENDER_NAME} characters.`)
    .refine((text) => isSingleLine(text) && !/[<>]/.test(text), SETTINGS_MESSAGES.senderName)
    .nullable(),
);

/** REST sends numbers as JSON numbers or digit strings; both are read. */
const hourSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,2}$/.test(value.trim()) ? Number(value) : value),
  z.number(SETTINGS_MESSAGES.hour).int(SETTINGS_MESSAGES.hour).min(0, SETTINGS_MESSAGES.hour).max(23, SETTINGS_MESSAGES.hour),
);

const timeZoneSettingSchema = z.preprocess(
  (value) => asText(value).trim(),
  z.string().transform((value, ctx) => {
    const zone = value ? knownTimeZone(value) : null;
    if (zone) return zone;
    ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.timeZone, input: value });
    return z.NEVER;
  }),
);

const linkSchema = z.preprocess((value) => (none(value) ? null : asText(value).trim()), z.string().refine(isAnnouncementLink, SETTINGS_MESSAGES.link).nullable());

const flagSchema = z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean(SETTINGS_MESSAGES.enabled));

/** The announcement bar: each part optional (one left out keeps its value). */
const announcementSchema = z.object(
  {
    enabled: flagSchema.optional(),
    text: singleLineSchema('The announcement', MAX_ANNOUNCEMENT_TEXT, false).optional(),
    link: linkSchema.optional(),
  },
  'The announcement must be an object with enabled, text and link.',
);

/**
 * A change of the shop's settings: every field optional (one left out keeps its value; `null` or an
 * empty text clears an optional one). Unknown fields are ignored (a REST client may send back what it read).
 */
export const shopSettingsPatchSchema = z.object(
  {
    shopName: singleLineSchema('The shop name', MAX_SHOP_NAME, true, 'The shop name is required.').optional(),
    logoId: z.preprocess((value) => (none(value) ? null : value), idSchema('The logo must be the id of an image in the media library.').nullable()).optional(),
    supportEmail: optionalEmailSchema.optional(),
    senderName: senderNameSchema.optional(),
    defaultDeliveryHour: hourSchema.optional(),
    timeZone: timeZoneSettingSchema.optional(),
    announcement: announcementSchema.optional(),
  },
  'The settings must be an object.',
);

export type ShopSettingsPatch = z.output<typeof shopSettingsPatchSchema>;
