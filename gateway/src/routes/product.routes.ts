import { decimalToNumber } from '../../../server/src/core/decimal.js';
import { CARD_MEDIA_SLOTS, slotStem, type EGreetingCard } from '../../../server/src/modules/catalogue/e-greeting-card.entity.js';
import { ProductSort, type ProductDetail, type ProductInput } from '../../../server/src/modules/catalogue/product.service.js';
import { AdminProductSort } from '../../../server/src/modules/catalogue/product-sort.js';
import type { ProductStatus } from '../../../server/src/modules/catalogue/product.entity.js';
import { parseStatus } from '../../../server/src/modules/catalogue/product-writer.js';
import { badInput } from '../../../server/src/core/errors.js';
import { readLocale, readProductsIn } from '../../../server/src/modules/catalogue/product-content.js';
import { DEFAULT_LOCALE, type Locale } from '../../../server/src/rules/locales.js';
import type { Services } from '../../../server/src/services.js';
import { sendAnswer } from '../http-cache.js';
import { CacheKeys, jsonAnswer } from '../../../server/src/core/read-cache.js';
import { body, pathId, queryFlag, queryParam, withRestFields, type RouteDef } from '../route.js';


const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function cardJson(card: EGreetingCard | null) {
  if (!card) return null;
  const json: Record<string, unknown> = { message_location: card.messageLocation, font_name: card.fontName, default_message: card.defaultMessage };
  for (const slot of CARD_MEDIA_SLOTS) {
    json[`${slotStem(slot)}_id`] = card[slot]?.id ?? null;
    json[`${slotStem(slot)}_path`] = card[slot]?.filePath ?? null;
  }
  return json;
}

const detailJson = ({ product, associatedImages, card, translations }: ProductDetail) => ({
  product: {
    id: product.id,
    name: product.name,
    description: product.description,
    sku: product.sku,
    price: decimalToNumber(product.price),
    compare_at_price: product.compareAtPrice === null ? null : decimalToNumber(product.compareAtPrice),
    status: product.status,
    category_id: product.categoryId,
    product_type_id: product.productTypeId,
    main_image_id: product.mainImageId,
  },
  main_image_path: product.mainImage?.filePath ?? null,
  tags: product.tags,
  associated_images: associatedImages.map((file) => ({ media_id: file.id, file_path: file.filePath, friendly_name: file.friendlyName })),
  translations: translations.map((t) => ({ locale: t.locale, name: t.name, description: t.description, default_message: t.defaultMessage })),
  e_greeting_card_data: cardJson(card),
});

/** A key left out of the body stays undefined, so that an update keeps its value. */
function productInput(json: Record<string, unknown>): ProductInput {
  const fields = isObject(json.product) ? json.product : {};
  const card = json.e_greeting_card_data;
  return {
    name: fields.name,
    description: fields.description,
    sku: fields.sku,
    price: fields.price,
    compareAtPrice: fields.compare_at_price,
    status: fields.status,
    categoryId: fields.category_id,
    productTypeId: fields.product_type_id,
    mainImageId: fields.main_image_id,
    tags: json.tags,
    associatedImageIds: json.associated_image_ids,
    translations: Array.isArray(json.translations)
      ? json.translations.map((t: unknown) => (isObject(t) ? { locale: t.locale, name: t.name, description: t.description, defaultMessage: t.default_message } : t))
      : json.translations,
    eGreetingCard: isObject(card)
      ? {
          messageLocation: card.message_location,
          fontName: card.font_name,
          defaultMessage: card.default_message,
          ...Object.fromEntries(CARD_MEDIA_SLOTS.map((slot) => [`${slot}Id`, card[`${slotStem(slot)}_id`]])),
        }
      : card,
  };
}

/** The service's field names → the REST body's. */
const FIELDS: Record<string, string> = {
  categoryId: 'category_id',
  productTypeId: 'product_type_id',
  mainImageId: 'main_image_id',
  associatedImageIds: 'associated_image_ids',
  compareAtPrice: 'compare_at_price',
  eGreetingCard: 'e_greeting_card_data',
  'eGreetingCard.messageLocation': 'e_greeting_card_data.message_location',
  'eGreetingCard.fontName': 'e_greeting_card_data.font_name',
  'eGreetingCard.defaultMessage': 'e_greeting_card_data.default_message',
  ...Object.fromEntries([0, 1, 2].map((i) => [`translations.${i}.defaultMessage`, `translations.${i}.default_message`])),
  ...Object.fromEntries(CARD_MEDIA_SLOTS.map((slot) => [`eGreetingCard.${slot}Id`, `e_greeting_card_data.${slotStem(slot)}_id`])),
};

export function productRoutes({ products, cache }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/products/category/:id',
      access: 'storefront',
      scopes: ['catalogue:read'],
      async handler(ctx, req, res) {
        sendAnswer(req, res, await products.categoryListAnswer(ctx, pathId(req.params.id, 'Category'), queryLang(req.query.lang)));
      },
    },
    {
      // Browsing the shop (contract section 15): ?q=&category_id=&type_id=&min_price=&max_price=&on_sale=&sort=&first=&after=
      method: 'get',
      path: '/products/search',
      access: 'storefront',
      scopes: ['catalogue:read'],
      async handler(ctx, req, res) {
        const q = req.query;
        const args = {
          query: queryParam(q.q),
          categoryId: queryId(q.category_id, 'category_id'),
          productTypeId: queryId(q.type_id, 'type_id'),
          minPrice: queryParam(q.min_price),
          maxPrice: queryParam(q.max_price),
          onSale: queryFlag(q.on_sale, 'on_sale'),
          sort: querySort(q.sort),
          first: queryId(q.first, 'first'),
          after: queryParam(q.after),
          locale: queryLang(q.lang),
        };
        // Kept in the read cache by its checked parameters, like the shop's other reads; any catalogue change drops it.
        const answer = await cache.read(CacheKeys.productSearch(JSON.stringify(args)), async () => {
          readProductsIn(ctx, args.locale);
          const page = await products.search(ctx, args, { counted: false });
          return jsonAnswer(
            JSON.stringify({
              items: await Promise.all(page.edges.map(async ({ node }) => ({ id: node.id, name: await products.nameOf(ctx, node), price: decimalToNumber(node.shopPrice), compare_at_price: node.shopCompareAt === null ? null : decimalToNumber(node.shopCompareAt), product_type_id: node.productTypeId, main_image_path: node.mainImage?.filePath ?? null }))),
              next_cursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
            }),
          );
        });
        sendAnswer(req, res, answer);
      },
    },
    {
      method: 'get',
      path: '/products/:id',
      access: 'storefront',
      scopes: ['catalogue:read'],
      async handler(ctx, req, res) {
        sendAnswer(req, res, await products.detailAnswer(ctx, pathId(req.params.id, 'Product'), queryLang(req.query.lang)));
      },
    },
    {
      // The console's list of every product (contract section 16): ?q=&category_id=&type_id=&status=&on_sale=&sort=&first=&after=
      method: 'get',
      path: '/admin/products',
      access: 'admin',
      scopes: ['catalogue:read'],
      async handler(ctx, req, res) {
        const q = req.query;
        const page = await withRestFields(
          products.adminList(ctx, {
            query: queryParam(q.q),
            categoryId: queryId(q.category_id, 'category_id'),
            productTypeId: queryId(q.type_id, 'type_id'),
            status: queryStatus(q.status),
            onSale: queryFlag(q.on_sale, 'on_sale'),
            sort: queryAdminSort(q.sort),
            first: queryId(q.first, 'first'),
            after: queryParam(q.after),
          }, { counted: false }),
          { categoryId: 'category_id', productTypeId: 'type_id' },
        );
        res.setHeader('Cache-Control', 'no-store');
        res.json({
          items: page.edges.map(({ node }) => ({
            id: node.id,
            name: node.name,
            sku: node.sku,
            price: decimalToNumber(node.price),
            compare_at_price: node.compareAtPrice === null ? null : decimalToNumber(node.compareAtPrice),
            status: node.status,
            category_id: node.categoryId,
            product_type_id: node.productTypeId,
            tags: node.tags,
            thumbnail_path: node.mainImage ? (node.mainImage.thumbnailPath ?? node.mainImage.filePath) : null,
            updated_at: node.updatedAt.toISOString(),
          })),
          next_cursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
        });
      },
    },
    {
      // Bulk actions (contract section 16): {ids, action: {type, category_id?, price?, percent?, tag?}} → {updated}
      method: 'post',
      path: '/admin/products/bulk',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        const input = body(req);
        const action = isObject(input.action) ? input.action : {};
        const result = await withRestFields(
          products.bulkUpdate(ctx, input.ids, { type: action.type, categoryId: action.category_id, price: action.price, percent: action.percent, tag: action.tag }),
          { 'action.categoryId': 'action.category_id' },
        );
        res.json({ updated: result.updated, undo_id: result.undoId });
      },
    },
    {
      method: 'post',
      path: '/admin/products/bulk/:undoId/undo',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        res.json(await products.undoBulkUpdate(ctx, req.params.undoId));
      },
    },
    {
      method: 'post',
      path: '/products',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        const product = await withRestFields(products.create(ctx, productInput(body(req))), FIELDS);
        res.status(201).json(detailJson(await products.detail(ctx, product.id)));
      },
    },
    {
      method: 'put',
      path: '/products/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        const product = await withRestFields(products.update(ctx, pathId(req.params.id, 'Product'), productInput(body(req))), FIELDS);
        res.json(detailJson(await products.detail(ctx, product.id)));
      },
    },
    {
      method: 'delete',
      path: '/products/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        await products.delete(ctx, pathId(req.params.id, 'Product'));
        res.status(204).end();
      },
    },
  ];
}

/** `?lang=`: one of the shop's languages (en when left out); 400 for another. */
function queryLang(value: unknown): Locale {
  return readLocale(queryParam(value), 'lang') ?? DEFAULT_LOCALE;
}

/** A positive whole number from the query string (an id, a page size), or null when absent. */
function queryId(value: unknown, field: string): number | null {
  const raw = queryParam(value);
  if (raw === null) return null;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw badInput(`${field} must be a positive whole number.`, field);
  return Number(raw);
}

function queryStatus(value: unknown): ProductStatus | null {
  const raw = queryParam(value);
  return raw === null ? null : parseStatus(raw);
}

const ADMIN_SORT_NAMES: Record<string, AdminProductSort> = { name: AdminProductSort.NAME, price_asc: AdminProductSort.PRICE_ASC, price_desc: AdminProductSort.PRICE_DESC, updated: AdminProductSort.UPDATED };

function queryAdminSort(value: unknown): AdminProductSort | null {
  const raw = queryParam(value);
  if (raw === null) return null;
  const sort = ADMIN_SORT_NAMES[raw];
  if (!sort) throw badInput('sort must be one of name, price_asc, price_desc, updated.', 'sort');
  return sort;
}

const SORT_NAMES: Record<string, ProductSort> = { name: ProductSort.NAME, newest: ProductSort.NEWEST, price_asc: ProductSort.PRICE_ASC, price_desc: ProductSort.PRICE_DESC };

function querySort(value: unknown): ProductSort | null {
  const raw = queryParam(value);
  if (raw === null) return null;
  const sort = SORT_NAMES[raw];
  if (!sort) throw badInput('sort must be one of newest, price_asc, price_desc, name.', 'sort');
  return sort;
}

