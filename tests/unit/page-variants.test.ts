import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageVariantOf, plainlyWantsHtml } from '../../gateway/src/page-cache.js';
import { ecardAddressOf } from '../../gateway/src/routes/ecard-pages.routes.js';

/** Which addresses the page cache keeps, and under which key; and that it answers only what Express would answer with a page. */

describe('the page a request reads from the cache', () => {
  it('is the plain address of the page, in the theme of the cookie', () => {
    expect(pageVariantOf('/', undefined)).toMatchObject({ page: 'home', key: 'shop:home:dark', url: '/' });
    expect(pageVariantOf('/?utm_source=mail', 'theme=light')).toMatchObject({ key: 'shop:home:light', url: '/' });
    expect(pageVariantOf('/shop?utm_campaign=x', undefined)).toMatchObject({ key: 'shop:all:dark', url: '/shop', categoryId: null });
    expect(pageVariantOf('/shop?category=7&utm=1', undefined)).toMatchObject({ key: 'shop:category:7:dark', url: '/shop?category=7', categoryId: 7 });
    expect(pageVariantOf('/product/12?line=abc', 'a=b; theme=light; c=d')).toMatchObject({ key: 'page:product:12:light', url: '/product/12', id: 12 });
    expect(pageVariantOf('/blog', undefined)).toMatchObject({ key: 'blog:list:dark' });
    expect(pageVariantOf('/blog/spring-is-here', undefined)).toMatchObject({ key: 'blog:post:spring-is-here:dark', idOrSlug: 'spring-is-here' });
    // Under the listing pages' prefix: a change of the shop's settings (its name) empties it with them.

    expect(pageVariantOf('/developers?utm_source=docs', 'theme=light')).toMatchObject({ page: 'developers', key: 'shop:developers:light', url: '/developers' });
  });

  it('is none for a search, a sort or a filter, an odd spelling, or anything else', () => {
    for (const url of ['/shop?q=balloon', '/shop?sort=price_asc', '/shop?category=7&type=2', '/shop?min_price=5', '/shop?max_price=15', '/shop?category=abc', '/shop?category=7&category=8', '/shop?category=07', '/product/012', '/product/abc', '/Product/12', '/product/12/', '/blog/rss.xml', '/blog/Spring', '/blog/', '/admindash', '/cart', '/product/99999999999', '/developers/', '/Developers'])
      expect(pageVariantOf(url, undefined), url).toBeNull();
    expect(pageVariantOf('/shop?q=', undefined)).not.toBeNull();
  });

  it('of an e-card is its card, the preview apart', () => {
    const uuid = '0b3c6a4e-7d0f-4a5b-9c1d-2e3f4a5b6c7d';
    expect(ecardAddressOf(`/ecards/${uuid}.html`)).toEqual({ uuid, preview: false, key: `ecard:${uuid}:card` });
    expect(ecardAddressOf(`/ecards/${uuid.toUpperCase()}.html?preview=1`)).toEqual({ uuid, preview: true, key: `ecard:${uuid}:preview` });
    expect(ecardAddressOf(`/ecards/${uuid}.html?preview=0`)?.preview).toBe(false);
    expect(ecardAddressOf(`/ecards/${uuid}.html?preview`)?.preview).toBe(true);
    expect(ecardAddressOf('/ecards/ecard.js')).toBeNull();
  });
});

describe('the fast path answers with a page', () => {
  it('only when Express would (accepts html before json)', () => {
    const accepts = createRequire(import.meta.url)('accepts') as (req: { headers: Record<string, string> }) => { type(types: string[]): string | false };
    const type = fc.constantFrom('text/html', 'application/json', '*/*', 'text/*', 'application/*', 'application/xhtml+xml', 'image/webp', 'TEXT/HTML');
    const q = fc.option(fc.constantFrom('0', '0.1', '0.5', '0.9', '1', '1.0'), { nil: undefined });
    const header = fc.array(fc.tuple(type, q), { minLength: 1, maxLength: 5 }).map((parts) => parts.map(([t, quality]) => (quality === undefined ? t : `${t};q=${quality}`)).join(','));
    fc.assert(
      fc.property(header, (accept) => !plainlyWantsHtml({ accept }) || accepts({ headers: { accept } }).type(['html', 'json']) === 'html'),
      { numRuns: 2000 },
    );
    for (const browser of ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', 'text/html,application/xhtml+xml,application/signed-exchange;v=b3,application/xml;q=0.9,*/*;q=0.8'])
      expect(plainlyWantsHtml({ accept: browser })).toBe(true);
    expect(plainlyWantsHtml({})).toBe(true);
  });
});
