/**
 * The languages the shop speaks (contract section 20): English without a prefix in the address,
 * the others under theirs (`/de/shop`, `/fr/product/12`). The admin console stays in English.
 */
export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as the footer's switch offers it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** A language as it may be written by a caller (`?lang=DE`, `de-AT`), or null when the shop does not speak it. */
export function parseLocale(value: string | null | undefined): Locale | null {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : null;
}

/** The language of an address and the path under it: `/de/shop` → de, `/shop`; `/fr` → fr, `/`; `/shop` → en, `/shop`. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/(de|fr|es)(?=\/|$)(.*)$/.exec(pathname);
  if (!match) return { locale: DEFAULT_LOCALE, path: pathname || '/' };
  return { locale: match[1] as Locale, path: match[2] || '/' };
}

/** The address of `path` (a shop path, with its query if any) in `locale`: `/shop` in de → `/de/shop`, `/` in fr → `/fr`. */
export function localizedPath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? `/${locale}` : path.startsWith('/?') ? `/${locale}${path.slice(1)}` : `/${locale}${path}`;
}

/** The router's base for a language: none for English, `/de` for German. */
export const localeBase = (locale: Locale): string | undefined => (locale === DEFAULT_LOCALE ? undefined : `/${locale}`);

/**
 * The language a browser asks for first among those the shop speaks (`Accept-Language`, by weight,
 * then by order); English when it names none of them.
 */
export function preferredLocale(acceptLanguage: string | null | undefined): Locale {
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { locale: parseLocale(tag), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((range): range is { locale: Locale; weight: number; index: number } => range.locale !== null && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges[0]?.locale ?? DEFAULT_LOCALE;
}

/** The BCP 47 tag `Intl` formats a language's dates, numbers and prices with. */
export const INTL_LOCALES: Readonly<Record<Locale, string>> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' };
