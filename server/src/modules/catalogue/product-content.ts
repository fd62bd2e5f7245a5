import type { RequestContext } from '../../core/context.js';
import { badInput } from '../../core/errors.js';
import { groupBy } from '../../core/loaders.js';
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../rules/locales.js';
import { TRANSLATION_LOCALES } from '../../rules/schemas.js';
import { ProductTranslation } from './product-translation.entity.js';

/**
 * A product's content in the language a read asks for (contract section 20): its name, description
 * and card default message from its translation, field by field, the English where a field is not
 * translated. A request reads products in one language: the storefront read that takes `locale`
 * (`product`, `searchProducts`, `cartQuote`...) names it for the request, and the content's field
 * resolvers answer in it.
 */

const LOCALE = 'catalogue.locale';

/** A language as a read's `locale` or `?lang=` gives it: null when left out, BAD_USER_INPUT when the shop does not speak it. */
export function readLocale(value: unknown, field = 'locale'): Locale | null {
  if (value === undefined || value === null || value === '') return null;
  const locale = typeof value === 'string' ? parseLocale(value) : null;
  if (!locale) throw badInput('The language must be one of en, de, fr, es.', field);
  return locale;
}

/** Makes `locale` (checked as readLocale does) the language this request reads products in; English when left out. */
export function readProductsIn(ctx: RequestContext, value: unknown, field = 'locale'): Locale {
  const locale = readLocale(value, field) ?? DEFAULT_LOCALE;
  ctx.scope.set(LOCALE, locale);
  return locale;
}

/** The language this request reads products in. */
export const contentLocale = (ctx: RequestContext): Locale => (ctx.scope.get(LOCALE) as Locale | undefined) ?? DEFAULT_LOCALE;

/** A product's translations, by language; batched across the products of a request (one query). */
export async function translationsOf(ctx: RequestContext, productId: number): Promise<ProductTranslation[]> {
  const loader = ctx.loader<number, ProductTranslation[]>('product.translations', async (ids) => {
    const rows = await ctx.em.find(ProductTranslation, { product: { $in: [...ids] } }, { orderBy: { product: 'asc', locale: 'asc' } });
    return groupBy(rows, (row) => row.product.id);
  });
  return (await loader.load(productId)) ?? [];
}

export type TranslatedField = 'name' | 'description' | 'defaultMessage';

/** A field of a product in the request's language: its translation when there is one, else `english`. */
export async function localized(ctx: RequestContext, productId: number, field: TranslatedField, english: string): Promise<string> {
  const locale = contentLocale(ctx);
  if (locale === DEFAULT_LOCALE) return english;
  const translation = (await translationsOf(ctx, productId)).find((row) => row.locale === locale);
  return translation?.[field] || english;
}

type Content = { locale: string; name: string; description: string; defaultMessage: string };

/** Whether two sets of translations say the same, whatever their order. */
export function sameTranslations(a: readonly Content[], b: readonly Content[]): boolean {
  const text = (list: readonly Content[]) => JSON.stringify([...list].sort((x, y) => x.locale.localeCompare(y.locale)).map(({ locale, name, description, defaultMessage }) => [locale, name, description, defaultMessage]));
  return text(a) === text(b);
}

const LANGUAGE_NAMES: Record<(typeof TRANSLATION_LOCALES)[number], string> = { de: 'German', fr: 'French', es: 'Spanish' };
const FIELD_NAMES: Record<TranslatedField, string> = { name: 'name', description: 'description', defaultMessage: 'default message' };

type SnapshotKey = `${TranslatedField}_${(typeof TRANSLATION_LOCALES)[number]}`;

/** The translations as the audit log compares them: one value per language and field. */
export function translationsSnapshot(translations: readonly Content[]): Record<SnapshotKey, string> {
  const snapshot = {} as Record<SnapshotKey, string>;
  for (const locale of TRANSLATION_LOCALES) {
    const translation = translations.find((row) => row.locale === locale);
    for (const field of Object.keys(FIELD_NAMES) as TranslatedField[]) snapshot[`${field}_${locale}` as SnapshotKey] = translation?.[field] ?? '';
  }
  return snapshot;
}

/** The audit log's label of each translated field ("German name"). */
export const TRANSLATION_FIELDS = Object.fromEntries(
  TRANSLATION_LOCALES.flatMap((locale) => (Object.keys(FIELD_NAMES) as TranslatedField[]).map((field) => [`${field}_${locale}`, `${LANGUAGE_NAMES[locale]} ${FIELD_NAMES[field]}`])),
) as Record<SnapshotKey, string>;
