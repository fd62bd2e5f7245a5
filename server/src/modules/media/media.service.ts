import { type FilterQuery, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { audited, named, recordAudit } from '../audit/index.js';
import { notFound } from '../../core/errors.js';
import { cleanName } from '../../core/input.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { MAX_FILE_NAME_LENGTH, MAX_FILES_PER_UPLOAD } from '../../rules/index.js';
import { ImageVariants } from './image-variants.js';
import { MediaBytes, type ServedFile, type SoldItem } from './media-bytes.js';
import { MediaFile } from './media-file.entity.js';
import type { MediaFolder } from './media-folder.entity.js';
import { MediaFolders } from './media-folders.js';
import type { MediaKind } from './media-formats.js';
import type { MediaStorage } from './media-storage.js';
import { UploadStager, type IncomingUpload } from './media-upload.js';
import { UploadStore, type GeneratedFile } from './media-upload-store.js';
import { MediaUsages, type MediaUsageProvider, type MediaUsageRecord } from './media-usages.js';

export type { ServedFile } from './media-bytes.js';
export { PRODUCT_UPLOADS_FOLDER, type GeneratedFile } from './media-upload-store.js';
export { MAX_FILES_PER_UPLOAD };

export interface MediaServiceOptions {
  /** The storefront read cache, told of renames and deletes. */
  cache?: ReadCache;
  storage: MediaStorage;
  /** The shared root of the staging folders (each process receives uploads in a folder of its own below it). */
  stagingDir: string;
  maxFileBytes: number;
}

export interface FilePageArgs {
  first?: number | null;
  after?: string | null;
  kind?: MediaKind | null;
}

/**
 * The media library: folders, files, uploads and the bytes behind them. Used by the GraphQL
 * resolvers and the REST routes alike.
 */
export class MediaService {
  readonly storage: MediaStorage;
  readonly maxFileBytes: number;
  readonly maxFiles = MAX_FILES_PER_UPLOAD;
  private readonly stager: UploadStager;
  private readonly usages = new MediaUsages();
  private readonly variants: ImageVariants;
  private readonly bytes: MediaBytes;
  private readonly folders: MediaFolders;
  private readonly uploads: UploadStore;

  /** File names and paths show in storefront answers: renames and deletes drop those answers. */
  private readonly cache: ReadCache | null;

  constructor(options: MediaServiceOptions) {
    this.storage = options.storage;
    this.cache = options.cache ?? null;
    this.maxFileBytes = options.maxFileBytes;
    this.stager = new UploadStager(options.stagingDir, options.maxFileBytes);
    this.variants = new ImageVariants(this.storage);
    this.bytes = new MediaBytes(this.storage, this.variants);
    this.folders = new MediaFolders(this.cache, this.bytes);
    this.uploads = new UploadStore(this.storage, this.stager, this.variants, this.folders, this.maxFiles);
  }

  /** Drops what stopped processes left half-received (stale files only); returns how many files went. */
  sweepStaging(maxAgeMs?: number): Promise<number> {
    return this.stager.sweep(maxAgeMs);
  }

  /** This process's staging folder (uploads in progress are received there). */
  get stagingFolder(): string {
    return this.stager.dir;
  }

  /** Removes this process's staging folder; at shutdown, once the image sizes under way are made. */
  async closeStaging(): Promise<void> {
    await this.imageSizesMade();
    return this.stager.close();
  }

  /** Resolves when the responsive image sizes asked for so far are stored (orderly stops, tests). */
  imageSizesMade(): Promise<void> {
    return this.variants.idle();
  }

  // ---- folders (see media-folders.ts) ----

  listFolders(ctx: RequestContext): Promise<MediaFolder[]> {
    return this.folders.listFolders(ctx);
  }

  createFolder(ctx: RequestContext, input: { name?: unknown; parentId?: unknown }): Promise<MediaFolder> {
    return this.folders.createFolder(ctx, input);
  }

  updateFolder(ctx: RequestContext, id: number, input: { name?: unknown; parentId?: unknown }): Promise<MediaFolder> {
    return this.folders.updateFolder(ctx, id, input);
  }

  deleteFolder(ctx: RequestContext, id: number): Promise<{ deletedFolderIds: number[]; deletedFileIds: number[] }> {
    return this.folders.deleteFolder(ctx, id);
  }

  // ---- files ----

  async getFile(ctx: RequestContext, id: number): Promise<MediaFile> {
    const file = await ctx.em.findOne(MediaFile, id);
    if (!file) throw notFound('File');
    return file;
  }

  /** One page of a folder's files, oldest first. */
  async folderFiles(ctx: RequestContext, folderId: number, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    await this.folders.requireFolder(ctx.em, folderId);
    return this.filePage(ctx.em, { folder: folderId }, args);
  }

  /** One page of every file of the library, oldest first. */
  allFiles(ctx: RequestContext, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    return this.filePage(ctx.em, {}, args);
  }

  /** The REST list: all files (of a folder, when given), optionally a window of them. */
  async listFiles(ctx: RequestContext, options: { folderId?: number; limit?: number; offset?: number } = {}): Promise<MediaFile[]> {
    if (options.folderId !== undefined) await this.folders.requireFolder(ctx.em, options.folderId);
    const where: FilterQuery<MediaFile> = options.folderId === undefined ? {} : { folder: options.folderId };
    return ctx.em.find(MediaFile, where, { orderBy: { id: 'asc' }, limit: options.limit, offset: options.offset });
  }

  async renameFile(ctx: RequestContext, id: number, friendlyName: unknown): Promise<MediaFile> {
    const name = cleanName(friendlyName, 'friendlyName', MAX_FILE_NAME_LENGTH);
    const file = await this.getFile(ctx, id);
    const before = file.friendlyName;
    await audited(
      ctx,
      async (tx) => {
        file.friendlyName = name;
        await tx.em.flush();
      },
      () => ({ entity: 'media-file', id, action: 'updated', summary: `Renamed ${named(before)} to ${named(name)}` }),
    );
    await this.cache?.changed([CacheKeys.all]);
    return file;
  }

  /** Deletes a file and its bytes; whatever referenced it is set to null by its foreign key. */
  async deleteFile(ctx: RequestContext, id: number): Promise<void> {
    const file = await ctx.em.transactional(async (em) => {
      const found = await em.findOne(MediaFile, id, { fields: ['id', 'filePath', 'thumbnailPath', 'friendlyName'], lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw notFound('File');
      await em.nativeDelete(MediaFile, { id });
      await recordAudit(withEm(ctx, em), { entity: 'media-file', id, action: 'deleted', summary: `Deleted ${named(found.friendlyName)}` });
      return found;
    });
    await this.cache?.changed([CacheKeys.all]);
    await this.removeBytes(ctx, [file]);
    ctx.log.info({ fileId: id }, 'media file deleted');
  }

  // ---- uploads (see media-upload-store.ts) ----

  upload(ctx: RequestContext, folderId: number, files: AsyncIterable<IncomingUpload>): Promise<MediaFile[]> {
    return this.uploads.upload(ctx, folderId, files);
  }

  uploadForProduct(ctx: RequestContext, files: AsyncIterable<IncomingUpload>): Promise<MediaFile[]> {
    return this.uploads.uploadForProduct(ctx, files);
  }

  storeGenerated(ctx: RequestContext, folderId: number, files: GeneratedFile[]): Promise<MediaFile[]> {
    return this.uploads.storeGenerated(ctx, folderId, files);
  }

  // ---- bytes: serving, sold cards, removal (see media-bytes.ts) ----

  findServed(ctx: RequestContext, name: string): Promise<ServedFile | null> {
    return this.bytes.findServed(ctx, name);
  }

  recordSold(tx: RequestContext, items: readonly SoldItem[]): Promise<void> {
    return this.bytes.recordSold(tx, items);
  }

  soldKnown(items: readonly SoldItem[]): boolean {
    return this.bytes.soldKnown(items);
  }

  removeBytes(ctx: RequestContext, files: Pick<MediaFile, 'filePath' | 'thumbnailPath'>[]): Promise<void> {
    return this.bytes.removeBytes(ctx, files);
  }

  // ---- usages ----

  /** Adds a source of usages (products, categories, ...); returns a function that removes it again. */
  registerUsageProvider(provider: MediaUsageProvider): () => void {
    return this.usages.register(provider);
  }

  /** What uses a file; the lookups of one request are batched. */
  usagesOf(ctx: RequestContext, fileId: number): Promise<MediaUsageRecord[]> {
    return this.usages.of(ctx, fileId);
  }

  // ---- internals ----

  private filePage(em: EntityManager, where: FilterQuery<MediaFile>, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    const filter: FilterQuery<MediaFile> = args.kind ? { ...(where as object), mimeType: { $like: `${args.kind}/%` } } : where;
    return keysetPage(em, MediaFile, filter, {
      size: pageSize(args.first),
      after: args.after,
      direction: 'asc',
      keys: [{ property: 'id', cursor: 'id', type: 'number', valueOf: (file) => file.id }],
    });
  }
}
