/** What the product reads are asked (their arguments) and what the detail answers. */
import type { MediaFile } from '../media/index.js';
import type { Locale } from '../../rules/locales.js';
import type { EGreetingCard } from './e-greeting-card.entity.js';
import type { Product, ProductStatus } from './product.entity.js';
import type { AdminProductSort, ProductSort } from './product-sort.js';
import type { ProductTranslation } from './product-translation.entity.js';

export interface ProductPageArgs {
  first?: number | null;
  after?: string | null;
}

/** The console's list of every product (GraphQL `adminProducts`, REST `GET /api/admin/products`). */
export interface AdminProductListArgs extends ProductPageArgs {
  query?: string | null;
  categoryId?: number | null;
  productTypeId?: number | null;
  status?: ProductStatus | null;
  onSale?: boolean | null;
  sort?: AdminProductSort | null;
}

export interface ProductSearchArgs extends ProductPageArgs {
  query?: string | null;
  categoryId?: number | null;
  productTypeId?: number | null;
  sort?: ProductSort | null;
  /** Prices from this amount (inclusive), exact decimals. */
  minPrice?: unknown;
  /** Prices up to this amount (inclusive). */
  maxPrice?: unknown;
  /** Only products on sale: with a compare-at price. */
  onSale?: boolean | null;
  /** The shopper's language: words are found in its translation as well as in the English (and the tags). */
  locale?: Locale | null;
}

/** A product with everything its detail page shows. */
export interface ProductDetail {
  product: Product;
  associatedImages: MediaFile[];
  card: EGreetingCard | null;
  translations: ProductTranslation[];
}
