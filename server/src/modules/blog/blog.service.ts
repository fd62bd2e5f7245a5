import type { FilterQuery } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import type { RequestContext } from '../../core/context.js';
import { audited, describeChanges, named } from '../audit/index.js';
import { badInput, conflict, notFound } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { postSlugSchema, postTextSchema, postTitleSchema } from '../../rules/schemas.js';
import { slugFromTitle } from '../../rules/slug.js';
import { checkedImage, type MediaUsageProvider } from '../media/index.js';
import { BlogPost, BlogPostStatus, publishedAndDue } from './blog-post.entity.js';
import { plainText, renderMarkdown } from './markdown.js';
import { Changes, type ReadCache } from '../../core/read-cache.js';

export interface BlogPostInput {
  title?: unknown;
  slug?: unknown;
  excerpt?: unknown;
  body?: unknown;
  metaDescription?: unknown;
  coverImageId?: unknown;
  /** `draft` or `published`; publishing without `publishedAt` keeps an earlier time or takes now. */
  status?: unknown;
  /** When a published post becomes public; a future time schedules it. */
  publishedAt?: unknown;
}

export interface BlogListArgs {
  first?: number | null;
  after?: string | null;
  /** Admins only: which posts; readers always get the published ones. */
  status?: BlogPostStatus | 'all' | null;
}

const POPULATE = ['coverImage', 'author'] as const;

/** The blog: posts in Markdown, published now or later, read by everyone and written by admins. */
export class BlogService {
  /** @param cache the storefront read cache, whose blog pages every write drops */
  constructor(private readonly cache: ReadCache | null = null) {}

  /** Posts visible to the caller: everything for an admin, published and due posts for everyone else. */
  private async visibility(ctx: RequestContext): Promise<FilterQuery<BlogPost>> {
    if (await ctx.isAdmin()) return {};
    return publishedAndDue();
  }

  /**
   * A page of posts, newest first. Readers (and admins by default) see the published posts; an admin
   * may ask for drafts or all, ordered by last change.
   */
  async list(ctx: RequestContext, args: BlogListArgs = {}): Promise<ConnectionResult<BlogPost>> {
    const size = pageSize(args.first, 100, 10);
    const isAdmin = await ctx.isAdmin();
    const status = isAdmin ? (args.status ?? BlogPostStatus.PUBLISHED) : BlogPostStatus.PUBLISHED;
    const where: FilterQuery<BlogPost> =
      status === BlogPostStatus.PUBLISHED ? publishedAndDue() : status === 'all' ? {} : { status };
    // Published posts by publication time; drafts (never published) by their last change.
    const byPublication = status === BlogPostStatus.PUBLISHED;
    const sortKey = byPublication ? 'publishedAt' : 'updatedAt';
    return keysetPage(ctx.em, BlogPost, where, {
      size,
      after: args.after,
      direction: 'desc',
      keys: [
        { property: sortKey, cursor: 't', type: 'date', valueOf: (post) => (byPublication ? post.publishedAt : post.updatedAt) ?? post.createdAt },
        { property: 'id', cursor: 'id', type: 'number', valueOf: (post) => post.id },
      ],
      populate: POPULATE,
    });
  }

  /** One post by id or slug; a post the caller may not see is NOT_FOUND, as if it did not exist. */
  async get(ctx: RequestContext, idOrSlug: string): Promise<BlogPost> {
    const key = idOrSlug.trim();
    const where: FilterQuery<BlogPost> = /^\d{1,9}$/.test(key) ? { id: Number(key) } : { slug: key.toLowerCase() };
    const post = await ctx.em.findOne(BlogPost, { $and: [where, await this.visibility(ctx)] }, { populate: POPULATE });
    if (!post) throw notFound('Post');
    return post;
  }

  async create(ctx: RequestContext, input: BlogPostInput): Promise<BlogPost> {
    const title = cleanTitle(input.title);
    const slug = input.slug === undefined || input.slug === null || input.slug === '' ? slugFrom(title) : cleanSlug(input.slug);
    const { user } = await ctx.requireViewer();
    const changes = await this.changes(ctx, input, null);
    await this.assertSlugFree(ctx, slug, null);
    const post = await audited(
      ctx,
      async (tx) => {
        const post = tx.em.create(BlogPost, { ...changes, title, slug, author: user.id });
        await this.flush(tx, slug);
        return post;
      },
      (post) => ({ entity: 'blog-post', id: post.id, action: 'created', summary: `Created ${post.status} ${named(title)}` }),
    );
    ctx.log.info({ postId: post.id }, 'blog post created');
    return post;
  }

  async update(ctx: RequestContext, id: number, input: BlogPostInput): Promise<BlogPost> {
    const post = await this.find(ctx, id);
    const title = input.title === undefined ? post.title : cleanTitle(input.title);
    const slug = input.slug === undefined ? post.slug : cleanSlug(input.slug);
    const changes = await this.changes(ctx, input, post);
    if (slug !== post.slug) await this.assertSlugFree(ctx, slug, post.id);
    const before = postSnapshot(post);
    const edited = [changes.body !== undefined && changes.body !== post.body ? 'text' : '', changes.excerpt !== undefined && changes.excerpt !== post.excerpt ? 'excerpt' : '', changes.coverImage !== undefined && changes.coverImage?.id !== post.coverImage?.id ? 'cover image' : ''].filter(Boolean);
    await audited(
      ctx,
      async (tx) => {
        tx.em.assign(post, { ...changes, title, slug });
        await this.flush(tx, slug);
      },
      () => {
        const fields = describeChanges(before, postSnapshot(post), { title: 'title', slug: 'address', status: 'status', publishedAt: 'published' });
        const summary = [fields === 'no changes' && edited.length ? '' : fields, edited.length ? `${edited.join(', ')} edited` : ''].filter(Boolean).join('; ');
        const action = before.status !== post.status ? (post.status === BlogPostStatus.PUBLISHED ? 'published' : 'unpublished') : 'updated';
        return { entity: 'blog-post', id: post.id, action, summary: `${named(post.title)}: ${summary}` };
      },
    );
    return post;
  }

  /** Publishes now, or at `publishedAt` (a future time schedules the post). */
  publish(ctx: RequestContext, id: number, publishedAt?: unknown): Promise<BlogPost> {
    return this.update(ctx, id, { status: BlogPostStatus.PUBLISHED, publishedAt });
  }

  unpublish(ctx: RequestContext, id: number): Promise<BlogPost> {
    return this.update(ctx, id, { status: BlogPostStatus.DRAFT });
  }

  async delete(ctx: RequestContext, id: number): Promise<void> {
    const post = await this.find(ctx, id);
    await audited(
      ctx,
      async (tx) => {
        tx.em.remove(post);
        await tx.em.flush();
      },
      () => ({ entity: 'blog-post', id, action: 'deleted', summary: `Deleted ${named(post.title)}` }),
    );
    await this.cache?.changed(Changes.blog());
    ctx.log.info({ postId: id }, 'blog post deleted');
  }

  /** When the next post scheduled for later goes public (what a reader sees changes then), or null. */
  async nextScheduledAt(ctx: RequestContext): Promise<Date | null> {
    const next = await ctx.em.findOne(BlogPost, { status: BlogPostStatus.PUBLISHED, publishedAt: { $gt: new Date() } }, { orderBy: { publishedAt: 'asc' }, fields: ['id', 'publishedAt'] });
    return next?.publishedAt ?? null;
  }

  /** The published, due posts for the feed, newest first. */
  async feedPosts(ctx: RequestContext, limit = 20): Promise<BlogPost[]> {
    return ctx.em.find(
      BlogPost,
      publishedAndDue(),
      { orderBy: { publishedAt: 'desc', id: 'desc' }, limit, populate: POPULATE },
    );
  }

  /** The HTML a body would render to. */
  preview(body: string): string {
    return renderMarkdown(optionalText(body, 'body', 200_000));
  }

  /** The description used in the page head and the feed. */
  description(post: BlogPost): string {
    return post.metaDescription || post.excerpt || plainText(post.body, 200);
  }

  /** Lets the media library say which posts use a file as their cover. */
  readonly mediaUsages: MediaUsageProvider = async (ctx, fileIds) => {
    const posts = await ctx.em.find(BlogPost, { coverImage: { $in: fileIds } }, { fields: ['id', 'title', 'coverImage'] });
    return posts.map((post) => ({ fileId: post.coverImage!.id, kind: 'post', id: post.id, label: post.title }));
  };

  private async find(ctx: RequestContext, id: number): Promise<BlogPost> {
    const post = await ctx.em.findOne(BlogPost, id, { populate: POPULATE });
    if (!post) throw notFound('Post');
    return post;
  }

  /** Checks the input and returns the changes it makes (everything but title and slug), touching nothing. */
  private async changes(ctx: RequestContext, input: BlogPostInput, current: BlogPost | null): Promise<Partial<BlogPost>> {
    const changes: Partial<BlogPost> = {};
    if (input.excerpt !== undefined) changes.excerpt = optionalText(input.excerpt, 'excerpt', 1000);
    if (input.body !== undefined) {
      changes.body = optionalText(input.body, 'body', 200_000);
      changes.html = renderMarkdown(changes.body);
    }
    if (input.metaDescription !== undefined) changes.metaDescription = optionalText(input.metaDescription, 'metaDescription', 300) || null;
    if (input.status !== undefined) {
      if (input.status === BlogPostStatus.PUBLISHED) {
        changes.publishedAt =
          input.publishedAt === undefined || input.publishedAt === null ? (current?.publishedAt ?? new Date()) : parseDate(input.publishedAt);
      } else if (input.status === BlogPostStatus.DRAFT) {
        changes.publishedAt = null;
      } else {
        throw badInput('status must be draft or published.', 'status');
      }
      changes.status = input.status;
    }
    if (input.coverImageId !== undefined) {
      if (input.coverImageId === null) changes.coverImage = null;
      else {
        const id = Number(input.coverImageId);
        if (!Number.isSafeInteger(id)) throw badInput('The cover image does not exist.', 'coverImageId');
        changes.coverImage = await checkedImage(ctx.em, id, 'coverImageId');
      }
    }
    return changes;
  }

  private async assertSlugFree(ctx: RequestContext, slug: string, exceptId: number | null): Promise<void> {
    const clash = await ctx.em.count(BlogPost, { slug, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
    if (clash) throw slugTaken(slug, await this.freeSlug(ctx, slug));
  }

  private async flush(ctx: RequestContext, slug: string): Promise<void> {
    // Two admins saving the same address at once: the unique index decides.
    await conflictOnUnique(() => ctx.em.flush(), () => slugTaken(slug, `${slug}-2`));
    await this.cache?.changed(Changes.blog());
  }

  /** The first of slug-2, slug-3, ... that no post uses. */
  private async freeSlug(ctx: RequestContext, slug: string): Promise<string> {
    const taken = new Set((await ctx.em.find(BlogPost, { slug: { $like: `${slug}-%` } }, { fields: ['slug'] })).map((p) => p.slug));
    for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
  }
}

function slugTaken(slug: string, suggestion: string) {
  return conflict(`The address "${slug}" is already used by another post; try "${suggestion}".`, 'slug');
}

function cleanTitle(value: unknown): string {
  return parseInput(postTitleSchema, value, 'title');
}

function cleanSlug(value: unknown): string {
  return parseInput(postSlugSchema, value, 'slug');
}

/** A slug from a title: "Hello, World!" → "hello-world". */
export function slugFrom(title: string): string {
  const slug = slugFromTitle(title);
  if (!slug || /^\d+$/.test(slug)) return `post-${slug || Date.now().toString(36)}`;
  return slug;
}

function optionalText(value: unknown, field: string, max: number): string {
  return parseInput(postTextSchema(field, max), value, field);
}

function parseDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw badInput('publishedAt must be a date and time (ISO 8601).', 'publishedAt');
  return date;
}

/** What the audit log compares of a post (its text is summed up as "edited"). */
const postSnapshot = (post: BlogPost) => ({ title: post.title, slug: post.slug, status: post.status as string, publishedAt: post.publishedAt });
