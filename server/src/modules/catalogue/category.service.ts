import { CacheKeys, Changes, jsonAnswer, type CachedAnswer, type ReadCache } from '../../core/read-cache.js';
import { categoryTreeJson } from './catalogue-reads.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { badInput, notFound } from '../../core/errors.js';
import { MediaFile, checkedImage, type MediaUsageProvider } from '../media/index.js';
import { subtreeIds } from '../../core/tree.js';
import { Category } from './category.entity.js';
import { cleanName, optionalId } from '../../core/input.js';
import { emitProductsOfCategories } from './product-events.js';
import type { WebhookEvents } from '../webhooks/index.js';

export interface CategoryInput {
  name?: unknown;
  parentId?: unknown;
  mediaId?: unknown;
}

/** The category tree. The whole tree is read in one query; the client builds it from `parentId`. */
export class CategoryService {
  constructor(
    private readonly cache: ReadCache,
    /** Where the products deleted with a category are told to the webhook endpoints. */
    private readonly webhooks: WebhookEvents,
  ) {}

  /** The REST tree (`GET /api/categories/all`): one query building the JSON, then served from the read cache. */
  tree(ctx: RequestContext): Promise<CachedAnswer> {
    return this.cache.read(CacheKeys.tree, async () => jsonAnswer(await categoryTreeJson(ctx.em)));
  }

  list(ctx: RequestContext): Promise<Category[]> {
    return ctx.em.find(Category, {}, { orderBy: { name: 'asc', id: 'asc' }, populate: ['media'] });
  }

  async get(ctx: RequestContext, id: number): Promise<Category> {
    const category = await ctx.em.findOne(Category, id, { populate: ['media'] });
    if (!category) throw notFound('Category');
    return category;
  }

  async create(ctx: RequestContext, input: CategoryInput): Promise<Category> {
    const name = cleanName(input.name);
    const parent = await this.parent(ctx, input.parentId);
    const media = await this.image(ctx, input.mediaId);
    const category = await ctx.em.transactional(async (em) => {
      const category = em.create(Category, { name, parent, media });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'category', id: category.id, action: 'created', summary: `Created ${named(name)}${parent ? ` under ${named(parent.name)}` : ''}` });
      return category;
    });
    await this.cache.changed(Changes.categoryAdded());
    return category;
  }

  /** A key left out keeps its value; a parent that would make the category its own ancestor is refused. */
  async update(ctx: RequestContext, id: number, input: CategoryInput): Promise<Category> {
    const name = input.name === undefined ? undefined : cleanName(input.name);
    const category = await ctx.em.transactional(async (em) => {
      // Moves are serialised (as media folder moves are), so that two crossing moves cannot make a cycle.
      if (input.parentId !== undefined) await em.execute('select pg_advisory_xact_lock(hashtext(?))', ['category_tree']);
      const scoped = { ...ctx, em };
      const category = await this.get(scoped, id);
      const parent = input.parentId === undefined ? category.parent : await this.parent(scoped, input.parentId);
      if (parent && (await this.isInSubtree(scoped, parent.id, id))) {
        throw badInput('A category cannot be moved under itself or one of its subcategories.', 'parentId');
      }
      const media = input.mediaId === undefined ? category.media : await this.image(scoped, input.mediaId);
      const before = snapshot(category);
      em.assign(category, { name: name ?? category.name, parent, media });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'category', id, action: 'updated', summary: `${named(category.name)}: ${describeChanges(before, snapshot(category), { name: 'name', parent: 'parent', image: 'image' })}` });
      return category;
    });
    // After the commit (and so after the tree lock is released): every process drops the old tree.
    await this.cache.changed(Changes.categoryChanged());
    return category;
  }

  /** Deletes the category with its subcategories (and, through the database, their products). */
  async delete(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.transactional(async (em) => {
      const category = await this.get(withEm(ctx, em), id);
      const subtree = await subtreeIds(em, 'category', id);
      const below = subtree.length - 1;
      await emitProductsOfCategories(this.webhooks, em, subtree);
      await em.nativeDelete(Category, { id: category.id });
      await recordAudit(withEm(ctx, em), { entity: 'category', id, action: 'deleted', summary: `Deleted ${named(category.name)}${below ? ` with ${below} subcategor${below === 1 ? 'y' : 'ies'}` : ''} and their products` });
    });
    ctx.em.clear();
    // Its subcategories and their products went with it.
    await this.cache.changed([CacheKeys.all]);
  }

  /** Lets the media library say which categories use a file as their image. */
  readonly mediaUsages: MediaUsageProvider = async (ctx, fileIds) => {
    const categories = await ctx.em.find(Category, { media: { $in: fileIds } }, { fields: ['id', 'name', 'media'] });
    return categories.map((c) => ({ fileId: c.media!.id, kind: 'category', id: c.id, label: c.name }));
  };

  private async parent(ctx: RequestContext, value: unknown): Promise<Category | null> {
    const id = optionalId(value, 'parentId');
    if (id === null) return null;
    const parent = await ctx.em.findOne(Category, id);
    if (!parent) throw badInput('The parent category does not exist.', 'parentId');
    return parent;
  }

  private async image(ctx: RequestContext, value: unknown): Promise<MediaFile | null> {
    const id = optionalId(value, 'mediaId');
    if (id === null) return null;
    return checkedImage(ctx.em, id, 'mediaId');
  }

  /** Whether `candidateId` is `rootId` or below it. */
  private async isInSubtree(ctx: RequestContext, candidateId: number, rootId: number): Promise<boolean> {
    return (await subtreeIds(ctx.em, 'category', rootId)).includes(candidateId);
  }

}

/** What the audit log compares of a category. */
const snapshot = (category: Category) => ({
  name: category.name,
  // A parent or image not loaded is named by its id.
  parent: category.parent ? (category.parent.name ?? `#${category.parent.id}`) : null,
  image: category.media ? (category.media.friendlyName ?? `#${category.media.id}`) : null,
});
