import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { createSystemContext, type RequestContext } from '../core/context.js';
import { Role, User } from '../modules/auth/user.entity.js';
import { BlogPostStatus } from '../modules/blog/blog-post.entity.js';
import type { BlogService } from '../modules/blog/blog.service.js';
import { Category } from '../modules/catalogue/category.entity.js';
import type { CategoryService } from '../modules/catalogue/category.service.js';
import { Product } from '../modules/catalogue/product.entity.js';
import { BUILT_IN_PRODUCT_TYPES, E_GREETING_CARD_TYPE_ID } from '../modules/catalogue/product-type.entity.js';
import type { ProductService } from '../modules/catalogue/product.service.js';
import type { MediaFile } from '../modules/media/media-file.entity.js';
import type { GeneratedFile, MediaService } from '../modules/media/media.service.js';
import { Setting } from '../modules/settings/setting.entity.js';
import { DEMO_ALBUM, DEMO_CARDS, DEMO_CATEGORIES, DEMO_COLLECTION, DEMO_POSTS, type CardKey, type CategoryKey, type SongKey } from './demo-catalogue.js';
import { makeDemoMedia, type DemoMedia } from './demo-media.js';

/** The setting that records that the demo catalogue was considered, so that it is never offered twice. */
export const DEMO_MARKER_KEY = 'demoCatalogue';
const [, MUSIC_ALBUM_TYPE, IMAGE_COLLECTION_TYPE] = BUILT_IN_PRODUCT_TYPES;

export type DemoSeedOutcome =
  | { seeded: true; categories: number; products: number; files: number; posts: number }
  | { seeded: false; reason: 'done-before' | 'shop-not-empty' };

type Ids<K extends string> = Record<K, number>;

/**
 * Fills an empty shop with a small demo catalogue (categories, e-cards with their pictures and songs,
 * an album, an art collection and two blog posts) through the shop's own services, once ever: an
 * admin who deletes it does not get it back.
 */
export class DemoSeedService {
  constructor(private readonly services: { media: MediaService; categories: CategoryService; products: ProductService; blog: BlogService }) {}

  /** The start-up step (taken when `demoSeedEnabled`): a failure is logged, never fatal. */
  async seedOnStart(em: EntityManager, log: Logger): Promise<void> {
    const started = performance.now();
    try {
      const outcome = await this.seed(em, log);
      const ms = Math.round(performance.now() - started);
      if (outcome.seeded) log.info({ ...outcome, ms }, 'demo catalogue added');
      else if (outcome.reason === 'shop-not-empty') log.info('demo catalogue not added: the shop already has categories or products');
    } catch (error) {
      log.error({ err: error }, 'could not add the demo catalogue; the shop starts empty');
    }
  }

  /**
   * Seeds into an empty shop, all or nothing: the rows are written in one transaction, and the stored
   * bytes are removed again when it fails. The pictures and songs are made before the transaction
   * opens, and only when the shop turns out to be a candidate.
   */
  async seed(em: EntityManager, log: Logger): Promise<DemoSeedOutcome> {
    const verdict = await this.verdict(em);
    if (verdict) {
      if (verdict === 'shop-not-empty') await this.mark(em, 'skipped');
      return { seeded: false, reason: verdict };
    }
    const media = await makeDemoMedia();
    const stored: MediaFile[] = [];
    const work = em.fork();
    // The services log each folder, file and product they make; one summary line says it better here.
    const quiet = log.child({ task: 'demo-catalogue' }, { level: log.levelVal > 40 ? log.level : 'warn' });
    const cleanupCtx = createSystemContext({ em: work, log: quiet, task: 'demo-catalogue' });
    try {
      return await work.transactional(async (tx) => {
        // Two processes starting on one database at once: the second waits, then finds the marker.
        await tx.execute('select pg_advisory_xact_lock(hashtext(?))', ['demo_catalogue']);
        const late = await this.verdict(tx);
        if (late) {
          if (late === 'shop-not-empty') await this.mark(tx, 'skipped');
          return { seeded: false, reason: late };
        }
        const admin = await tx.findOne(User, { role: Role.ADMIN }, { orderBy: { id: 'asc' } });
        if (!admin) throw new Error('The demo blog posts need an admin to sign them, and there is none.');
        const ctx = createSystemContext({ em: tx, log: quiet, task: 'demo-catalogue', actor: admin });
        const outcome = await this.write(ctx, media, stored);
        await this.mark(tx, 'seeded');
        return outcome;
      });
    } catch (error) {
      await this.services.media.removeBytes(cleanupCtx, stored);
      throw error;
    }
  }

  /** Why the shop must not be seeded, or null when it may. */
  private async verdict(em: EntityManager): Promise<'done-before' | 'shop-not-empty' | null> {
    if (await em.findOne(Setting, { key: DEMO_MARKER_KEY })) return 'done-before';
    return (await em.count(Category)) || (await em.count(Product)) ? 'shop-not-empty' : null;
  }

  private async mark(em: EntityManager, value: 'seeded' | 'skipped'): Promise<void> {
    await em.upsert(Setting, { key: DEMO_MARKER_KEY, value, updatedAt: new Date() });
  }

  private async write(ctx: RequestContext, media: DemoMedia, stored: MediaFile[]) {
    const { media: library, categories: categoryService, products, blog } = this.services;
    const folder = async (name: string, parentId: number | null) => (await library.createFolder(ctx, { name, parentId })).id;
    const store = async (folderId: number, files: GeneratedFile[]) => {
      const rows = await library.storeGenerated(ctx, folderId, files);
      stored.push(...rows);
      return rows.map((row) => row.id);
    };

    const root = await folder('Demo', null);
    const cardsFolder = await folder('Cards', root);
    const songsFolder = await folder('Songs', root);
    const albumsFolder = await folder('Albums', root);
    const artFolder = await folder('Art Collections', root);
    const blogFolder = await folder('Blog', root);

    const songKeys = Object.keys(media.songs) as SongKey[];
    const songIds = await store(songsFolder, songKeys.map((key) => media.songs[key]));
    const songs = Object.fromEntries(songKeys.map((key, i) => [key, songIds[i]])) as Ids<SongKey>;

    const cardImages = {} as Record<CardKey, { cover: number; inside: number; back: number; extras: number[] }>;
    for (const card of DEMO_CARDS) {
      const files = media.cards[card.key];
      const [cover, inside, back, ...extras] = await store(cardsFolder, [files.cover, files.inside, files.back, ...files.extras]);
      cardImages[card.key] = { cover, inside, back, extras };
    }
    const [albumCover, ...albumImages] = await store(albumsFolder, media.album);
    const [collectionMain, ...collectionImages] = await store(artFolder, media.collection);
    const [welcomeCover, envelopeCover] = await store(blogFolder, [media.posts.welcome, media.posts.envelope]);

    const imageOf = (key: CardKey | 'album' | 'collection') =>
      key === 'album' ? albumCover : key === 'collection' ? collectionMain : cardImages[key].cover;
    const categories = {} as Ids<CategoryKey>;
    for (const category of DEMO_CATEGORIES) {
      const parentId = category.parent ? categories[category.parent] : null;
      categories[category.key] = (await categoryService.create(ctx, { name: category.name, parentId, mediaId: imageOf(category.image) })).id;
    }

    for (const card of DEMO_CARDS) {
      const images = cardImages[card.key];
      const [song1Id = null, song2Id = null, song3Id = null] = card.songs.map((key) => songs[key]);
      const [extraImage1Id = null, extraImage2Id = null, extraImage3Id = null] = images.extras;
      await products.create(ctx, {
        name: card.name,
        description: card.description,
        sku: card.sku,
        price: card.price,
        categoryId: categories[card.category],
        productTypeId: E_GREETING_CARD_TYPE_ID,
        mainImageId: images.cover,
        tags: card.tags,
        associatedImageIds: images.extras,
        eGreetingCard: {
          messageLocation: card.messageLocation,
          fontName: card.fontName,
          song1Id,
          song2Id,
          song3Id,
          coverImageId: images.cover,
          greetingImageId: images.inside,
          backImageId: images.back,
          extraImage1Id,
          extraImage2Id,
          extraImage3Id,
        },
      });
    }
    await products.create(ctx, {
      name: DEMO_ALBUM.name,
      description: DEMO_ALBUM.description,
      sku: DEMO_ALBUM.sku,
      price: DEMO_ALBUM.price,
      tags: DEMO_ALBUM.tags,
      categoryId: categories.albums,
      productTypeId: MUSIC_ALBUM_TYPE.id,
      mainImageId: albumCover,
      associatedImageIds: albumImages,
    });
    await products.create(ctx, {
      name: DEMO_COLLECTION.name,
      description: DEMO_COLLECTION.description,
      sku: DEMO_COLLECTION.sku,
      price: DEMO_COLLECTION.price,
      tags: DEMO_COLLECTION.tags,
      categoryId: categories.collections,
      productTypeId: IMAGE_COLLECTION_TYPE.id,
      mainImageId: collectionMain,
      associatedImageIds: collectionImages,
    });

    // A minute apart, so that the welcome post is the older one and the list reads in order.
    const covers = { welcome: welcomeCover, envelope: envelopeCover };
    const now = Date.now();
    for (const [i, post] of DEMO_POSTS.entries()) {
      await blog.create(ctx, {
        title: post.title,
        excerpt: post.excerpt,
        body: post.body,
        coverImageId: covers[post.cover],
        status: BlogPostStatus.PUBLISHED,
        publishedAt: new Date(now - (DEMO_POSTS.length - 1 - i) * 60_000),
      });
    }

    return { seeded: true as const, categories: DEMO_CATEGORIES.length, products: DEMO_CARDS.length + 2, files: stored.length, posts: DEMO_POSTS.length };
  }
}
