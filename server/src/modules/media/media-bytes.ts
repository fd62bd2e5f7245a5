import { LRUCache } from 'lru-cache';
import type { RequestContext } from '../../core/context.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { MediaFile } from './media-file.entity.js';
import { SoldMedia } from './sold-media.entity.js';
import type { MediaStorage } from './media-storage.js';
import { parseVariantKey, variantKeysOf, type ImageVariants } from './image-variants.js';

/**
 * Keeps the files a sold card shows: one statement for all of them (a JSON object of key → MIME type);
 * answers the keys it added (the others were kept already, by a committed transaction: a conflicting
 * insert waits for the one that wrote the key).
 */
const RECORD_SOLD = preparedRead('media_record_sold', 'insert into sold_media (key, mime_type) select key, value from jsonb_each_text($1::jsonb) on conflict (key) do nothing returning key');

/** How many kept keys a process remembers (a key forgotten is only written again, as a no-op). */
const KNOWN_SOLD_MAX = 20_000;

/** Stored keys live under this prefix in `file_path`, which is also the URL path under /api. */
export const PATH_PREFIX = 'uploads/';

/** What recordSold reads of a sold card's media (see orders/card-design.ts). */
interface SoldCardMedia {
  path: string;
  mimeType: string;
}

/** An order item as recordSold reads it: the media its card shows, if it is a card. */
export interface SoldItem {
  card?: { cover: SoldCardMedia | null; greeting: SoldCardMedia | null; back: SoldCardMedia | null; extras: SoldCardMedia[]; songs: SoldCardMedia[] } | null;
}

/** A stored file ready to be served: its storage key, content type and size. */
export interface ServedFile {
  key: string;
  contentType: string;
  size: number;
}

/**
 * The bytes behind the media library: which stored file a served name is, the files sold cards keep
 * (they outlive a delete from the library), and removing the bytes of deleted files.
 */
export class MediaBytes {
  /**
   * Keys this process found kept already. A kept key is never removed (that is the point of it), so a
   * card sold again with the same files needs no statement at all.
   */
  private readonly knownSold = new LRUCache<string, true>({ max: KNOWN_SOLD_MAX });

  constructor(
    private readonly storage: MediaStorage,
    private readonly variants: ImageVariants,
  ) {}

  /** The stored file (original, thumbnail or responsive size) behind a served name, or null when there is none. */
  async findServed(ctx: RequestContext, name: string): Promise<ServedFile | null> {
    const variant = parseVariantKey(name);
    if (variant) {
      // A size of a stored image: made now when it is missing (images stored before sizes existed).
      const original =
        (await ctx.em.count(MediaFile, { filePath: PATH_PREFIX + variant.originalKey, mimeType: { $like: 'image/%' } })) ||
        (await ctx.em.count(SoldMedia, { key: variant.originalKey, mimeType: { $like: 'image/%' } }));
      if (!original) return null;
      const stat = await this.variants.ensure(variant.originalKey, variant.width);
      return stat ? { key: name, contentType: 'image/webp', size: stat.size } : null;
    }
    if (!/^[A-Za-z0-9_-]+(\.thumb)?\.[a-z0-9]+$/.test(name)) return null;
    const served = PATH_PREFIX + name;
    const file = await ctx.em.findOne(MediaFile, { $or: [{ filePath: served }, { thumbnailPath: served }] }, { fields: ['filePath', 'mimeType'] });
    // A file deleted from the library is still served when a sold card shows it.
    const sold = file ? null : await ctx.em.findOne(SoldMedia, { key: name });
    if (!file && !sold) return null;
    const stat = await this.storage.stat(name);
    if (!stat) return null;
    const contentType = file ? (file.filePath === served ? file.mimeType : 'image/webp') : sold!.mimeType;
    return { key: name, contentType, size: stat.size };
  }

  /**
   * Records the files the sold cards of an order show, in the order's transaction, so that deleting
   * them from the library later keeps their bytes (and serving keeps finding them).
   */
  async recordSold(tx: RequestContext, items: readonly SoldItem[]): Promise<void> {
    const rows = this.unknownSold(items);
    if (!rows.size) return;
    const added = new Set((await runPrepared<{ key: string }>(tx.em, RECORD_SOLD, [JSON.stringify(Object.fromEntries(rows))])).map((row) => row.key));
    // Only the keys that were kept before: those added now are kept only if the order's transaction commits.
    for (const key of rows.keys()) if (!added.has(key)) this.knownSold.set(key, true);
  }

  /** Whether every file these items show is known kept already (recordSold would send nothing). */
  soldKnown(items: readonly SoldItem[]): boolean {
    return this.unknownSold(items).size === 0;
  }

  /** The files the items show that this process does not know to be kept: key → MIME type. */
  private unknownSold(items: readonly SoldItem[]): Map<string, string> {
    const rows = new Map<string, string>();
    for (const { card } of items) {
      if (!card) continue;
      for (const m of [card.cover, card.greeting, card.back, ...card.extras, ...card.songs]) {
        if (!m || !m.path.startsWith(PATH_PREFIX)) continue;
        const key = m.path.slice(PATH_PREFIX.length);
        if (!this.knownSold.get(key)) rows.set(key, m.mimeType);
      }
    }
    return rows;
  }

  /**
   * Removes the stored bytes of files whose rows are gone: deleted, or rolled back with an enclosing
   * transaction that failed after the files were stored.
   */
  async removeBytes(ctx: RequestContext, files: Pick<MediaFile, 'filePath' | 'thumbnailPath'>[]): Promise<void> {
    const all = files.flatMap((f) => [f.filePath, f.thumbnailPath]).filter((p): p is string => Boolean(p)).map((p) => p.slice(PATH_PREFIX.length));
    let keys = all.flatMap((key) => [key, ...variantKeysOf(key)]);
    try {
      // The bytes a sold card shows are kept (the recipient's card keeps working).
      const sold = all.length ? await ctx.em.fork().find(SoldMedia, { key: { $in: all } }, { fields: ['key'] }) : [];
      const keep = new Set(sold.map((row) => row.key));
      // A kept file keeps its picture sizes too.
      const gone = all.filter((key) => !keep.has(key));
      keys = gone.flatMap((key) => [key, ...variantKeysOf(key)]);
      if (keep.size) ctx.log.info({ kept: [...keep] }, 'media bytes kept for sold cards');
      // Originals first: a size not begun yet then finds nothing to make; one being made is awaited
      // and removed with the others.
      await this.storage.remove(gone);
      await this.variants.settled(gone);
      await this.storage.remove(gone.flatMap((key) => variantKeysOf(key)));
    } catch (error) {
      // The rows are gone already; leftover bytes are unreachable (serving needs a row) and only cost disk.
      ctx.log.error({ err: error, keys }, 'could not remove stored media bytes');
    }
  }
}
