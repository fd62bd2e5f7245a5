import type { Sharp } from 'sharp';
import { loadSharp } from './sharp.js';
import type { Logger } from 'pino';
import type { MediaStorage } from './media-storage.js';

/**
 * Responsive sizes of stored images: WebP copies at a few widths beside the original, named after
 * it (`<key>.w640.webp`), so that a page can offer the browser a `srcset` and the browser fetch
 * only what the screen needs. The 320 px thumbnail (`<random>.thumb.webp`) is the smallest size.
 *
 * They are made right after an image is uploaded (in the background: the upload does not wait),
 * and on the first request for one that is not there yet (an image stored before, or a copy that
 * went missing), always through the media storage.
 */
export const VARIANT_WIDTHS = [640, 1024, 1600] as const;
export const THUMBNAIL_WIDTH = 320;
const WEBP_QUALITY = 78;
const PATH_PREFIX = 'uploads/';

/** Originals that get sizes: photos and drawings (an animated GIF keeps its one file). */
const RESIZABLE = /\.(jpg|png|webp)$/;

export function variantKey(originalKey: string, width: number): string {
  return `${originalKey}.w${width}.webp`;
}

/** The original key and width of a variant's name, or null when the name is not one. */
export function parseVariantKey(name: string): { originalKey: string; width: number } | null {
  const match = /^([A-Za-z0-9_-]+\.(?:jpg|png|webp))\.w(\d{3,4})\.webp$/.exec(name);
  if (!match) return null;
  const width = Number(match[2]);
  return (VARIANT_WIDTHS as readonly number[]).includes(width) ? { originalKey: match[1]!, width } : null;
}

/** Every variant key an original may have (for removing them with it). */
export function variantKeysOf(originalKey: string): string[] {
  return RESIZABLE.test(originalKey) && !originalKey.includes('.thumb.') ? VARIANT_WIDTHS.map((width) => variantKey(originalKey, width)) : [];
}

export interface SizedImage {
  filePath: string;
  thumbnailPath: string | null;
  width: number | null;
}

/**
 * The `srcset` of an image (URLs under /api), each candidate with the width it really has: the
 * thumbnail, then the variants narrower than the original, then one at the original's own width
 * (capped at the largest size). Null when the image has no sizes (GIF, unknown width).
 */
export function srcSetOf(image: SizedImage): string | null {
  const originalKey = image.filePath.startsWith(PATH_PREFIX) ? image.filePath.slice(PATH_PREFIX.length) : null;
  if (!originalKey || !RESIZABLE.test(originalKey) || !image.width) return null;
  const candidates: string[] = [];
  if (image.thumbnailPath && image.width > THUMBNAIL_WIDTH) candidates.push(`/api/${image.thumbnailPath} ${THUMBNAIL_WIDTH}w`);
  for (const width of VARIANT_WIDTHS) {
    candidates.push(`/api/${PATH_PREFIX}${variantKey(originalKey, width)} ${Math.min(width, image.width)}w`);
    if (width >= image.width) break;
  }
  return candidates.join(', ');
}

const resize = (image: Sharp, width: number) => image.autoOrient().resize({ width, withoutEnlargement: true }).webp({ quality: WEBP_QUALITY });

/** Makes missing variants on demand, from the original in storage; one making per key at a time. */
export class ImageVariants {
  private readonly making = new Map<string, Promise<{ size: number } | null>>();
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly storage: MediaStorage) {}

  /**
   * Makes the sizes of newly stored images, one after the other, in the background (a failure is
   * logged: the size is then made on its first request).
   */
  makeAll(log: Logger, images: SizedImage[]): void {
    const work = images.flatMap((image) => {
      const originalKey = image.filePath.slice(PATH_PREFIX.length);
      if (!RESIZABLE.test(originalKey) || !image.width) return [];
      const widths: number[] = [];
      for (const width of VARIANT_WIDTHS) {
        widths.push(width);
        if (width >= image.width) break;
      }
      return widths.map((width) => ({ originalKey, width }));
    });
    if (!work.length) return;
    this.pending = this.pending.then(async () => {
      for (const { originalKey, width } of work) {
        await this.ensure(originalKey, width).catch((error: unknown) => log.warn({ err: error, key: originalKey, width }, 'could not make an image size'));
      }
    });
  }

  /** Resolves when the sizes asked for so far are made (for an orderly stop, and for tests). */
  idle(): Promise<void> {
    return this.pending;
  }

  /** Resolves when no size of these originals is being made any more (before removing their sizes). */
  async settled(originalKeys: string[]): Promise<void> {
    const pending = originalKeys.flatMap((key) => variantKeysOf(key)).flatMap((key) => this.making.get(key) ?? []);
    await Promise.allSettled(pending);
  }

  /** The stored variant's size, making it first when it is missing; null when the original is gone. */
  async ensure(originalKey: string, width: number): Promise<{ size: number } | null> {
    const key = variantKey(originalKey, width);
    const stored = await this.storage.stat(key);
    if (stored) return stored;
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.make(originalKey, key, width).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  private async make(originalKey: string, key: string, width: number): Promise<{ size: number } | null> {
    if (!(await this.storage.stat(originalKey))) return null;
    // A web-sized image is small: it is made in memory and stored in one piece, on disk or in a bucket.
    const original = Buffer.concat(await (await this.storage.read(originalKey)).toArray());
    const sharp = await loadSharp();
    const bytes = await resize(sharp(original, { failOn: 'error' }), width).toBuffer();
    await this.storage.put(key, { bytes }, 'image/webp');
    return this.storage.stat(key);
  }
}
