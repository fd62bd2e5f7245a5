/** The catalogue module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { catalogueSitemap } from './catalogue-sitemap.js';
export { categoryPathNames } from './category-path.js';
export { CARD_MEDIA_SLOTS, SONG_SLOTS, slotStem, type CardMediaSlot } from './e-greeting-card.entity.js';
export { parsePrice } from './product-rules.js';
export { E_GREETING_CARD_TYPE_ID } from './product-type.entity.js';
export { Product, ProductStatus } from './product.entity.js';
export { mainImagePath } from './product-picture.js';
export { contentLocale, readLocale, readProductsIn } from './product-content.js';
export { PRODUCT_PAGES_QUEUED_SIGNAL, PRODUCT_PAGES_STALE_SIGNAL, ProductPages, type PageEdition, type PageWork, type StoredPage } from './product-pages.js';
