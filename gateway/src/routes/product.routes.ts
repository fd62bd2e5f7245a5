import { decimalToNumber } from '../../../server/src/core/decimal.js';
import { CARD_MEDIA_SLOTS, slotStem, type EGreetingCard } from '../../../server/src/modules/catalogue/e-greeting-card.entity.js';
import type { ProductDetail, ProductInput } from '../../../server/src/modules/catalogue/product.service.js';
import type { Services } from '../../../server/src/services.js';
import { sendAnswer } from '../http-cache.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';


const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function cardJson(card: EGreetingCard | null) {
  if (!card) return null;
  const json: Record<string, unknown> = { message_location: card.messageLocation, font_name: card.fontName };
  for (const slot of CARD_MEDIA_SLOTS) {
    json[`${slotStem(slot)}_id`] = card[slot]?.id ?? null;
    json[`${slotStem(slot)}_path`] = card[slot]?.filePath ?? null;
  }
  return json;
}

const detailJson = ({ product, associatedImages, card }: ProductDetail) => ({
  product: {
    id: product.id,
    name: product.name,
    description: product.description,
    sku: product.sku,
    price: decimalToNumber(product.price),
    category_id: product.categoryId,
    product_type_id: product.productTypeId,
    main_image_id: product.mainImageId,
  },
  main_image_path: product.mainImage?.filePath ?? null,
  tags: product.tags,
  associated_images: associatedImages.map((file) => ({ media_id: file.id, file_path: file.filePath, friendly_name: file.friendlyName })),
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
    categoryId: fields.category_id,
    productTypeId: fields.product_type_id,
    mainImageId: fields.main_image_id,
    tags: json.tags,
    associatedImageIds: json.associated_image_ids,
    eGreetingCard: isObject(card)
      ? {
          messageLocation: card.message_location,
          fontName: card.font_name,
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
  eGreetingCard: 'e_greeting_card_data',
  'eGreetingCard.messageLocation': 'e_greeting_card_data.message_location',
  'eGreetingCard.fontName': 'e_greeting_card_data.font_name',
  ...Object.fromEntries(CARD_MEDIA_SLOTS.map((slot) => [`eGreetingCard.${slot}Id`, `e_greeting_card_data.${slotStem(slot)}_id`])),
};

export function productRoutes({ products }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/products/category/:id',
      access: 'storefront',
      async handler(ctx, req, res) {
        sendAnswer(req, res, await products.categoryListAnswer(ctx, pathId(req.params.id, 'Category')));
      },
    },
    {
      method: 'get',
      path: '/products/:id',
      access: 'storefront',
      async handler(ctx, req, res) {
        sendAnswer(req, res, await products.detailAnswer(ctx, pathId(req.params.id, 'Product')));
      },
    },
    {
      method: 'post',
      path: '/products',
      access: 'admin',
      async handler(ctx, req, res) {
        const product = await withRestFields(products.create(ctx, productInput(body(req))), FIELDS);
        res.status(201).json(detailJson(await products.detail(ctx, product.id)));
      },
    },
    {
      method: 'put',
      path: '/products/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        const product = await withRestFields(products.update(ctx, pathId(req.params.id, 'Product'), productInput(body(req))), FIELDS);
        res.json(detailJson(await products.detail(ctx, product.id)));
      },
    },
    {
      method: 'delete',
      path: '/products/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await products.delete(ctx, pathId(req.params.id, 'Product'));
        res.status(204).end();
      },
    },
  ];
}
