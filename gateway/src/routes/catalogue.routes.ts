import type { Services } from '../../../server/src/services.js';
import type { Category } from '../../../server/src/modules/catalogue/category.entity.js';
import type { ProductType } from '../../../server/src/modules/catalogue/product-type.entity.js';
import { sendAnswer } from '../http-cache.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const categoryJson = (c: Category) => ({ id: c.id, parent_id: c.parentId, name: c.name, media_id: c.mediaId });
const typeJson = (t: ProductType) => ({ id: t.id, name: t.name });

/** REST names → the service's (a key left out stays undefined, so it keeps its value). */
const categoryInput = (json: Record<string, unknown>) => ({ name: json.name, parentId: json.parent_id, mediaId: json.media_id });
const CATEGORY_FIELDS = { parentId: 'parent_id', mediaId: 'media_id' };

export function catalogueRoutes({ categories, productTypes }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/categories/all',
      access: 'storefront',
      scopes: ['catalogue:read'],
      async handler(ctx, req, res) {
        sendAnswer(req, res, await categories.tree(ctx));
      },
    },
    {
      method: 'post',
      path: '/categories',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        res.status(201).json(categoryJson(await withRestFields(categories.create(ctx, categoryInput(body(req))), CATEGORY_FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/categories/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        res.json(categoryJson(await withRestFields(categories.update(ctx, pathId(req.params.id, 'Category'), categoryInput(body(req))), CATEGORY_FIELDS)));
      },
    },
    {
      method: 'delete',
      path: '/categories/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        await categories.delete(ctx, pathId(req.params.id, 'Category'));
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/product_types',
      access: 'storefront',
      scopes: ['catalogue:read'],
      async handler(ctx, _req, res) {
        res.json((await productTypes.list(ctx)).map(typeJson));
      },
    },
    {
      method: 'post',
      path: '/product_types',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        res.status(201).json(typeJson(await productTypes.create(ctx, body(req))));
      },
    },
    {
      method: 'put',
      path: '/product_types/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        res.json(typeJson(await productTypes.update(ctx, pathId(req.params.id, 'Product type'), body(req))));
      },
    },
    {
      method: 'delete',
      path: '/product_types/:id',
      access: 'admin',
      scopes: ['catalogue:write'],
      async handler(ctx, req, res) {
        await productTypes.delete(ctx, pathId(req.params.id, 'Product type'));
        res.status(204).end();
      },
    },
  ];
}
