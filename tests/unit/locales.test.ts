import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES, localizedPath, parseLocale, preferredLocale, splitLocalePath, type Locale } from '../../server/src/rules/locales.js';
import { pageVariantOf } from '../../gateway/src/page-cache.js';
import { alternatesOf, homeRedirectOf, isConsolePath, langCookieOf } from '../../gateway/src/page-locale.js';
import { CacheKeys } from '../../server/src/core/cache-keys.js';

/** The shop's languages as rules: which one a browser asks for, and the language in an address. */

describe('the language a browser asks for', () => {
  it('is the first the shop speaks, by weight, then by order', () => {
    expect(preferredLocale('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(preferredLocale('en-US,en;q=0.9,de;q=0.8')).toBe('en');
    expect(preferredLocale('it, fr;q=0.5, es;q=0.8')).toBe('es');
    expect(preferredLocale('fr;q=0.8, es;q=0.8')).toBe('fr');
    expect(preferredLocale('de;q=0, fr;q=0.1')).toBe('fr');
    expect(preferredLocale('ES-mx')).toBe('es');
    expect(preferredLocale('fr_CA')).toBe('fr');
    expect(preferredLocale('*;q=1, de;q=0.5')).toBe('de');
  });

  it('is English when it names none the shop speaks, or nothing', () => {
    for (const header of [undefined, null, '', 'it, ja;q=0.9', 'de;q=0', '*', 'garbage;;;q=x', 'denglish']) expect(preferredLocale(header), String(header)).toBe('en');
  });

  it('is always one of the shop languages, and the best weighted of them', () => {
    const tag = fc.constantFrom('en', 'de', 'fr', 'es', 'it', 'ja', 'de-AT', 'fr-CH', 'es-419', 'en-GB', '*');
    const range = fc.record({ tag, q: fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(range, { maxLength: 8 }), (ranges) => {
        const header = ranges.map(({ tag, q }) => (q === undefined ? tag : `${tag};q=${q}`)).join(', ');
        const chosen = preferredLocale(header);
        expect(LOCALES).toContain(chosen);
        const weights = ranges.map(({ tag, q }) => ({ locale: parseLocale(tag), weight: q ?? 1 })).filter((r) => r.locale && r.weight > 0);
        if (!weights.length) return chosen === DEFAULT_LOCALE;
        const best = Math.max(...weights.map((r) => r.weight));
        return weights.find((r) => r.weight === best)!.locale === chosen;
      }),
    );
  });
});

describe('the language in an address', () => {
  it('is the prefix, English without one', () => {
    expect(splitLocalePath('/de/shop')).toEqual({ locale: 'de', path: '/shop' });
    expect(splitLocalePath('/fr')).toEqual({ locale: 'fr', path: '/' });
    expect(splitLocalePath('/es/')).toEqual({ locale: 'es', path: '/' });
    expect(splitLocalePath('/shop')).toEqual({ locale: 'en', path: '/shop' });
    expect(splitLocalePath('/dev/x')).toEqual({ locale: 'en', path: '/dev/x' });
    expect(splitLocalePath('/en/shop')).toEqual({ locale: 'en', path: '/en/shop' });
    expect(localizedPath('de', '/')).toBe('/de');
    expect(localizedPath('fr', '/?utm=1')).toBe('/fr?utm=1');
    expect(localizedPath('es', '/product/3')).toBe('/es/product/3');
    expect(localizedPath('en', '/shop?category=2')).toBe('/shop?category=2');
  });

  it('goes there and back: any shop path in any language reads as that language and that path', () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
    const shopPath = fc.array(segment, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(fc.constantFrom<Locale>(...LOCALES), shopPath, (locale, path) => {
        // An English path that starts like a prefix is not a shop path in English (there is none).
        fc.pre(!/^\/(de|fr|es)(\/|$)/.test(path));
        expect(splitLocalePath(localizedPath(locale, path))).toEqual({ locale, path });
      }),
    );
  });

  it('gives every page its alternates in every language, and English as x-default', () => {
    expect(alternatesOf('https://x.example', '/')).toEqual([
      { hreflang: 'en', href: 'https://x.example/' },
      { hreflang: 'de', href: 'https://x.example/de' },
      { hreflang: 'fr', href: 'https://x.example/fr' },
      { hreflang: 'es', href: 'https://x.example/es' },
      { hreflang: 'x-default', href: 'https://x.example/' },
    ]);
  });
});

describe('the visit to /', () => {
  it('goes to the cookie language, else the browser language, when it is not English; nowhere from any other address', () => {
    expect(homeRedirectOf('/', { 'accept-language': 'de' })).toBe('/de');
    expect(homeRedirectOf('/?a=1', { 'accept-language': 'de', cookie: 'theme=dark; lang=es' })).toBe('/es?a=1');
    expect(homeRedirectOf('/', { 'accept-language': 'de', cookie: 'lang=en' })).toBeNull();
    expect(homeRedirectOf('/', {})).toBeNull();
    expect(homeRedirectOf('/shop', { 'accept-language': 'de' })).toBeNull();
    expect(homeRedirectOf('/de', { 'accept-language': 'fr' })).toBeNull();
    expect(langCookieOf('a=1; lang=fr; b=2')).toBe('fr');
    expect(langCookieOf('slang=fr')).toBeNull();
    expect(langCookieOf(undefined)).toBeNull();
  });

  it('knows the console, which stays English', () => {
    for (const path of ['/admindash', '/admindash/products/3', '/settings', '/admin/blog/new', '/staff/accept']) expect(isConsolePath(path), path).toBe(true);
    for (const path of ['/', '/shop', '/settingsx', '/account/settings', '/administrator']) expect(isConsolePath(path), path).toBe(false);
  });
});

describe('the kept pages of each language', () => {
  it('are kept under keys of their own, the English ones as before, each dropped with its English twin', () => {
    expect(pageVariantOf('/de', undefined)).toMatchObject({ page: 'home', key: 'shop:de:home:dark', url: '/de', locale: 'de' });
    expect(pageVariantOf('/de/?utm=1', 'theme=light')).toMatchObject({ key: 'shop:de:home:light', url: '/de' });
    expect(pageVariantOf('/fr/shop?category=7&utm=1', undefined)).toMatchObject({ key: 'shop:fr:category:7:dark', url: '/fr/shop?category=7', categoryId: 7 });
    expect(pageVariantOf('/es/product/12', undefined)).toMatchObject({ key: 'page:product:12:es:dark', url: '/es/product/12', id: 12 });
    expect(pageVariantOf('/de/blog/spring', undefined)).toMatchObject({ key: 'blog:de:post:spring:dark', url: '/de/blog/spring' });
    expect(pageVariantOf('/product/12', undefined)).toMatchObject({ key: 'page:product:12:dark', locale: 'en' });
    expect(CacheKeys.productPages(12)).toEqual(expect.arrayContaining(['page:product:12:dark', 'page:product:12:light', 'page:product:12:de:dark', 'page:product:12:es:light']));
    expect(CacheKeys.productPages(12)).toHaveLength(LOCALES.length * 2);
    for (const url of ['/DE/shop', '/de/cart', '/de/admindash', '/en/shop']) expect(pageVariantOf(url, undefined), url).toBeNull();
    // Every kept page of every language is under the prefix its English twin is dropped by.
    for (const [english, other] of [['/', '/de'], ['/shop', '/fr/shop'], ['/blog', '/es/blog'], ['/developers', '/de/developers']]) {
      expect(pageVariantOf(other!, undefined)!.key.split(':')[0]).toBe(pageVariantOf(english!, undefined)!.key.split(':')[0]);
    }
  });
});
