import type { RequestContext } from '../../../server/src/core/context.js';
import type { Services } from '../../../server/src/services.js';
import type { MediaFile } from '../../../server/src/modules/media/media-file.entity.js';
import type { Product } from '../../../server/src/modules/catalogue/product.entity.js';
import type { PublicShop } from '../../../server/src/modules/settings/shop-settings.js';
import { localizedPath, type Locale } from '../../../server/src/rules/locales.js';
import { IMAGE_SIZES } from '../initial-queries.js';
import type { PageHead } from '../page-head.js';
import type { PageDescription } from '../page-drawer.js';
import { pageWords } from '../page-words.js';

/**
 * What the storefront's pages say about themselves, shared by the routes that draw them on request
 * and the background drawing of product pages (background-pages.ts), so that both draw the same bytes.
 */

/** Plain text of at most `max` characters, cut at a word, for meta descriptions. */
export function summary(text: string, max = 160): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

export const imageUrl = (site: string, file: Pick<MediaFile, 'filePath'> | null | undefined) => (file ? `${site}/api/${file.filePath}` : null);

/** The shop as schema.org's Organization: its name, address, logo and support address as the owner set them. */
export function organizationJsonLd(site: string, shop: PublicShop): Record<string, unknown> {
  const logo = imageUrl(site, shop.logo);
  return {
    '@type': 'Organization',
    name: shop.name,
    url: `${site}/`,
    ...(logo ? { logo } : {}),
    ...(shop.supportEmail ? { email: shop.supportEmail } : {}),
  };
}

export function preloadOf(image: MediaFile | null | undefined, sizes: string): PageHead['preloadImage'] {
  if (!image) return null;
  const srcSet = image.srcSet;
  return { href: `/api/${srcSet ? (image.thumbnailPath ?? image.filePath) : image.filePath}`, srcSet, sizes };
}

export type DescribeProduct = (visitor: RequestContext, id: number, shop: PublicShop, locale: Locale) => Promise<PageDescription>;

/** A product's page: its head in the page's language (title, description, Open Graph, schema.org) and its first screen's read. */
export function productPageDescriber({ products }: Pick<Services, 'products'>, site: string): DescribeProduct {
  return async (visitor, id, shop, locale) => {
    const words = pageWords(locale);
    // One query: the product, its images, card data and category name; the page's GraphQL read below takes it from there.
    const { product, card, categoryName } = await products.storefront(visitor, id);
    const content = await products.contentIn(visitor, product, locale);
    const cover = card?.coverImage ?? product.mainImage;
    const description = summary(content.description || words('productDescription', { product: content.name, shop: shop.name }));
    const canonical = `${site}/product/${product.id}`;
    return {
      head: {
        title: `${content.name} · ${shop.name}`,
        socialTitle: content.name,
        description,
        canonical,
        type: 'product',
        image: imageUrl(site, cover),
        meta: { 'product:price:amount': Number(product.shopPrice).toFixed(2), 'product:price:currency': 'USD' },
        preloadImage: preloadOf(cover, card ? IMAGE_SIZES.card : IMAGE_SIZES.gallery),
        jsonLd: [productJsonLd(site, shop, product, { ...content, description, locale }, cover, categoryName)],
      },
      reads: [{ operationName: 'StoreProduct', variables: { id, locale } }],
    };
  };
}

/** A product as schema.org's Product, in the page's language (`content`: its name and description in it). */
function productJsonLd(site: string, shop: PublicShop, product: Product, content: { name: string; description: string; locale: Locale }, image: MediaFile | null | undefined, category: string | undefined): object {
  const url = `${site}${localizedPath(content.locale, `/product/${product.id}`)}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: content.name,
    description: content.description,
    inLanguage: content.locale,
    url,
    ...(image ? { image: imageUrl(site, image) } : {}),
    ...(product.sku ? { sku: product.sku } : {}),
    ...(category ? { category } : {}),
    ...(product.tags.length ? { keywords: product.tags.join(', ') } : {}),
    brand: { '@type': 'Brand', name: shop.name, ...(shop.logo ? { logo: imageUrl(site, shop.logo) } : {}) },
    offers: {
      '@type': 'Offer',
      url,
      price: Number(product.shopPrice).toFixed(2),
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}
