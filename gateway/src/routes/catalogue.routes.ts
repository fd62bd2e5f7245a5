import type { Services } from '../../../server/src/services.js';
import { badInput } from '../../../server/src/core/errors.js';
import type { Category } from '../../../server/src/modules/catalogue/category.entity.js';
import type { ProductType } from '../../../server/src/modules/catalogue/product-type.entity.js';
import { body, type RouteDef } from '../route.js';

const categoryJson = (c: Category) => ({ id: c.id, parent_id: c.parentId, name: c.name, media_id: c.mediaId });
const typeJson = (t: ProductType) => ({ id: t.id, name: t.name });

function pathId(raw: unknown): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw badInput('The id must be a positive integer.', 'id');
  return id;
}

/** REST names → the service's (a key left out stays undefined, so it keeps its value). */
const categoryInput = (json: Record<string, unknown>) => ({ name: json.name, parentId: json.parent_id, mediaId: json.media_id });

export function catalogueRoutes({ categories, productTypes }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/categories/all',
      access: 'storefront',
      async handler(ctx, _req, res) {
        res.json((await categories.list(ctx)).map(categoryJson));
      },
    },
    {
      method: 'post',
      path: '/categories',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(categoryJson(await categories.create(ctx, categoryInput(body(req)))));
      },
    },
    {
      method: 'put',
      path: '/categories/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(categoryJson(await categories.update(ctx, pathId(req.params.id), categoryInput(body(req)))));
      },
    },
    {
      method: 'delete',
      path: '/categories/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await categories.delete(ctx, pathId(req.params.id));
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/product_types',
      access: 'storefront',
      async handler(ctx, _req, res) {
        res.json((await productTypes.list(ctx)).map(typeJson));
      },
    },
    {
      method: 'post',
      path: '/product_types',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(typeJson(await productTypes.create(ctx, body(req))));
      },
    },
    {
      method: 'put',
      path: '/product_types/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(typeJson(await productTypes.update(ctx, pathId(req.params.id), body(req))));
      },
    },
    {
      method: 'delete',
      path: '/product_types/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await productTypes.delete(ctx, pathId(req.params.id));
        res.status(204).end();
      },
    },
  ];
}
