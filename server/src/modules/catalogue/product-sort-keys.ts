import type { KeysetKey } from '../../core/pagination.js';
import type { Product } from './product.entity.js';
import { AdminProductSort, ProductSort } from './product-sort.js';

/** A list's order as a keyset: its first key and direction (the id always follows, see ProductService). */
export type SortKey = { direction: 'asc' | 'desc'; key: KeysetKey<Product> };

/** Each order's first key and direction; every one is served by an index ending with the id (see the migration). */
export const SORTS: Record<ProductSort, SortKey> = {
  [ProductSort.NAME]: { direction: 'asc', key: { property: 'sortName', cursor: 'n', type: 'string', valueOf: (p) => p.sortName ?? p.name.toLowerCase() } },
  [ProductSort.NEWEST]: { direction: 'desc', key: { property: 'createdAt', cursor: 't', type: 'date', valueOf: (p) => p.createdAt } },
  [ProductSort.PRICE_ASC]: { direction: 'asc', key: { property: 'shopPrice', cursor: 'p', type: 'string', valueOf: (p) => p.shopPrice } },
  [ProductSort.PRICE_DESC]: { direction: 'desc', key: { property: 'shopPrice', cursor: 'p', type: 'string', valueOf: (p) => p.shopPrice } },
};

/** The console sorts by the price the admin set. */
const REGULAR_PRICE = {
  asc: { direction: 'asc', key: { property: 'price', cursor: 'p', type: 'string', valueOf: (p) => p.price } },
  desc: { direction: 'desc', key: { property: 'price', cursor: 'p', type: 'string', valueOf: (p) => p.price } },
} as const satisfies Record<string, SortKey>;

/** The console's orders: the shop's by name and price, and the last changed first. */
export const ADMIN_SORTS: Record<AdminProductSort, SortKey> = {
  [AdminProductSort.NAME]: SORTS[ProductSort.NAME],
  [AdminProductSort.PRICE_ASC]: REGULAR_PRICE.asc,
  [AdminProductSort.PRICE_DESC]: REGULAR_PRICE.desc,
  [AdminProductSort.UPDATED]: { direction: 'desc', key: { property: 'updatedAt', cursor: 'u', type: 'date', valueOf: (p) => p.updatedAt } },
};
