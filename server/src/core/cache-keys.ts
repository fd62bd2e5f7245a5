import { DEFAULT_LOCALE, LOCALES, type Locale } from '../rules/locales.js';

/**
 * The keys of the shop's cached reads: one per entity or page, so that a write can name what it
 * changed. A key's first segment (up to its first ':') is its namespace; a key ending in ':' names
 * every key below it, and '*' everything.
 */
export const CacheKeys = {
  settings: 'settings',
  /** The automatic discounts (every one, whatever its start and end): read by every quote and checkout. */
  automaticDiscounts: 'automatic-discounts',
  /** The owner's settings of the shop (name, logo, announcement...): one value, read by pages, e-mail and the settings reads. */
  shopSettings: 'shop-settings',
  tree: 'tree',
  /** A product's read in one language. */
  product: (id: number, locale: string = 'en') => `product:${id}:${locale}`,
  /** A product's reads in every language (a prefix). */
  productReads: (id: number) => `product:${id}:`,
  /** Every product's read (a prefix). */
  products: 'product:',
  /** Every page and list of one category (a prefix). */
  category: (id: number) => `category:${id}:`,
  /** A category's list of products in one language. */
  categoryList: (id: number, locale: string = 'en') => `category:${id}:all:${locale}`,
  /** Every category's pages and lists (a prefix). */
  categories: 'category:',
  /** Whole GraphQL answers (a prefix): any catalogue change drops them. */
  graphql: 'gql:',
  /** A product's drawn page, in each theme and language (exact keys: a product's write drops its own pages only). */
  productPage: (id: number, theme: string, locale: Locale = DEFAULT_LOCALE) => productPageKey(id, theme, locale),
  productPages: (id: number) => LOCALES.flatMap((locale) => THEMES.map((theme) => productPageKey(id, theme, locale))),
  /** A product's drawn pages in every theme and language (a prefix). */
  productPagesOf: (id: number) => `page:product:${id}:`,
  /** Every product's page (a category's name or a product type's shows on them). */
  productPagesAll: 'page:',
  /** The pages listing the catalogue: home and the shop with its categories (a prefix). */
  shopPages: 'shop:',
  /** A page of the shop's REST search (`GET /api/products/search`), by its parameters: it lists the catalogue as the shop's pages do. */
  productSearch: (parameters: string) => `shop:search:${parameters}`,
  /** The blog's pages: its list and its posts (a prefix). */
  blogPages: 'blog:',
  /** A purchased e-card's page (its preview included). */
  ecard: (uuid: string) => `ecard:${uuid.toLowerCase()}:`,
  /** Every purchased e-card's page. */
  ecards: 'ecard:',
  /** An API key as a request signed with it is recognised (by the key's digest). */
  apiKey: (digest: string) => `api-key:${digest}`,
  /** Every API key looked up (a prefix): a revocation drops them all. */
  apiKeys: 'api-key:',
  /** The event types some enabled webhook endpoint takes: what a change asks before it writes an event. */
  webhookEvents: 'webhook-events',
  /** Everything (a media rename or delete changes paths wherever the file is used). */
  all: '*',
} as const;

/** A product's page: the English one's key has no language in it (as before languages came). */
function productPageKey(id: number, theme: string, locale: Locale): string {
  return locale === DEFAULT_LOCALE ? `page:product:${id}:${theme}` : `page:product:${id}:${locale}:${theme}`;
}

/** The themes a page is drawn in (the `theme` cookie). */
export const THEMES = ['dark', 'light'] as const;

/**
 * What each kind of write changes, as keys to drop: every cached read and page that shows it. The
 * services call `cache.changed(Changes.x(...))` after their commit.
 */
export const Changes = {
  /** A product saved, created or deleted (in these categories): its reads and pages in every language, its categories' lists, the listings. */
  product: (id: number, categoryIds: number[]): string[] => [
    CacheKeys.productReads(id),
    CacheKeys.productPagesOf(id),
    ...[...new Set(categoryIds)].map(CacheKeys.category),
    CacheKeys.graphql,
    CacheKeys.shopPages,
  ],
  /** A category added: the tree and what lists categories. */
  categoryAdded: (): string[] => [CacheKeys.tree, CacheKeys.graphql, CacheKeys.shopPages],
  /**
   * A category renamed or moved: also every product page (it names its product's category), and every
   * product's read and category list (a move can bring products under a running sale's category or out of it).
   */
  categoryChanged: (): string[] => [CacheKeys.tree, CacheKeys.graphql, CacheKeys.shopPages, CacheKeys.productPagesAll, CacheKeys.products, CacheKeys.categories],
  /** A product type added, renamed or deleted (product pages name their type). */
  productType: (): string[] => [CacheKeys.graphql, CacheKeys.shopPages, CacheKeys.productPagesAll],
  /** A site setting (the under-construction switch, the shop's name, logo, announcement...): every storefront answer and page. */
  settings: (): string[] => [CacheKeys.settings, CacheKeys.shopSettings, CacheKeys.graphql, CacheKeys.shopPages, CacheKeys.productPagesAll, CacheKeys.blogPages],
  /** A blog post written, published, unpublished or deleted. */
  blog: (): string[] => [CacheKeys.blogPages],
} as const;
