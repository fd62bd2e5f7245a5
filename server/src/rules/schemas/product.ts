/** Products. */
import { z } from 'zod';
import { MAX_DESCRIPTION_LENGTH, MAX_FONT_NAME_LENGTH, MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH, MAX_SKU_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../limits.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.js';
import { isId, multiLineSchema, readId, singleLineSchema } from './fields.js';

/** Tags trimmed, empty ones dropped, and each kept once whatever its case (the first spelling wins). */
export const tagsSchema = z.preprocess(
  (value) => value ?? [],
  z
    .custom<string[]>((value) => Array.isArray(value) && value.every((tag) => typeof tag === 'string'), 'Tags must be a list of texts.')
    .transform((raw) => raw.map((tag) => tag.trim().replace(/\s+/g, ' ')).filter(Boolean))
    .refine((tags) => tags.every((tag) => tag.length <= MAX_TAG_LENGTH), `A tag must be at most ${MAX_TAG_LENGTH} characters.`)
    .transform((tags) => {
      const seen = new Set<string>();
      return tags.filter((tag) => {
        const key = tag.toLocaleLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    })
    .refine((tags) => tags.length <= MAX_TAGS, `A product can have at most ${MAX_TAGS} tags.`),
);

/** Optional text: null/undefined become the empty string. */
export const descriptionSchema = z.preprocess(
  (value) => value ?? '',
  z.string('The description must be a text.').trim().max(MAX_DESCRIPTION_LENGTH, `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`),
);

/** An optional SKU: trimmed, empty means none. */
export const skuSchema = z.preprocess(
  (value) => (value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : value),
  z
    .string('The SKU must be a text.')
    .trim()
    .max(MAX_SKU_LENGTH, `The SKU must be at most ${MAX_SKU_LENGTH} characters.`)
    .refine((sku) => !/[\u0000-\u001f]/.test(sku), 'The SKU must not contain control characters.')
    .transform((sku) => sku || null),
);

/**
 * A font family name of the font service: letters, digits and single spaces. It ends up in the
 * card page's stylesheet link and CSS, so nothing else may pass.
 */
export const fontNameSchema = z.preprocess(
  (value) => (value === null || value === undefined ? '' : value),
  z
    .string('The font must be a font family name.')
    .transform((name) => name.trim().replace(/\s+/g, ' '))
    .refine((name) => !name || (name.length <= MAX_FONT_NAME_LENGTH && /^[A-Za-z0-9][A-Za-z0-9 ]*$/.test(name)), 'The font must be a font family name (letters, digits and spaces).')
    .transform((name) => name || null),
);

/** A list of ids (duplicates dropped, order kept). */
export const idListSchema = (max: number) =>
  z.preprocess(
    (value) => value ?? [],
    z
      .array(z.unknown(), 'Give a list of ids.')
      .transform((items) => items.map(readId))
      .refine((ids) => ids.every(isId), 'Every id must be a positive integer.')
      .transform((ids) => [...new Set(ids as number[])])
      .refine((ids) => ids.length <= max, `At most ${max} are allowed.`),
  );

/** A card's default message: the text its personalisation form starts from (line breaks kept; empty: none). */
export const defaultMessageSchema = multiLineSchema('The default message', MAX_MESSAGE_LENGTH, false);

/** The languages a product's content is translated into: every one the shop speaks but English. */
export const TRANSLATION_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE) as Exclude<Locale, 'en'>[];
export type TranslationLocale = (typeof TRANSLATION_LOCALES)[number];

export interface ProductTranslationValues {
  locale: TranslationLocale;
  name: string;
  description: string;
  defaultMessage: string;
}

const translationSchema = z.object({
  locale: z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(TRANSLATION_LOCALES, `The language must be one of ${TRANSLATION_LOCALES.join(', ')}.`)),
  name: singleLineSchema('The name', MAX_NAME_LENGTH, false),
  description: z.preprocess((value) => value ?? '', descriptionSchema),
  defaultMessage: defaultMessageSchema,
});

/**
 * A product's translations, one per language at most. Empty fields are not translated (the English is
 * shown); a language whose fields are all empty is dropped.
 */
export const translationsSchema = z.preprocess(
  (value) => value ?? [],
  z
    .array(translationSchema, 'Give a list of translations.')
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (seen.has(item.locale)) ctx.addIssue({ code: 'custom', message: `The language ${item.locale} is given twice.`, path: [index, 'locale'], input: item.locale });
        seen.add(item.locale);
      });
    })
    .transform((items): ProductTranslationValues[] => items.filter((item) => item.name || item.description || item.defaultMessage)),
);
