import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { Readable } from 'node:stream';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { audited, named, recordAudit } from '../audit/audit.js';
import { badInput, notFound } from '../../core/errors.js';
import { cleanName, optionalId } from '../../core/input.js';
import { subtreeIds } from '../../core/tree.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { MediaFile } from './media-file.entity.js';
import { MediaFolder } from './media-folder.entity.js';
import type { MediaKind } from './media-formats.js';
import type { MediaStorage } from './media-storage.js';
import { MediaUsages, type MediaUsageProvider, type MediaUsageRecord } from './media-usages.js';
import { ImageVariants } from './image-variants.js';
import { MediaBytes, PATH_PREFIX, type ServedFile, type SoldItem } from './media-bytes.js';

export type { ServedFile } from './media-bytes.js';
import { UploadStager, type IncomingUpload, type StagedUpload } from './media-upload.js';
import { MAX_FILE_NAME_LENGTH, MAX_FILES_PER_UPLOAD } from '../../rules/index.js';

export const PRODUCT_UPLOADS_FOLDER = 'Product Uploads';
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

/** A file the server made itself (a generated picture or song): its name and its bytes. */
export interface GeneratedFile {
  fileName: string;
  bytes: Buffer;
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

  /** File names and paths show in storefront answers: renames and deletes drop those answers. */
  private readonly cache: ReadCache | null;

  constructor(options: MediaServiceOptions) {
    this.storage = options.storage;
    this.cache = options.cache ?? null;
    this.maxFileBytes = options.maxFileBytes;
    this.stager = new UploadStager(options.stagingDir, options.maxFileBytes);
    this.variants = new ImageVariants(this.storage);
    this.bytes = new MediaBytes(this.storage, this.variants);
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

  // ---- folders ----

  listFolders(ctx: RequestContext): Promise<MediaFolder[]> {
    return ctx.em.find(MediaFolder, {}, { orderBy: { name: 'asc', id: 'asc' } });
  }

  async createFolder(ctx: RequestContext, input: { name?: unknown; parentId?: unknown }): Promise<MediaFolder> {
    const name = cleanName(input.name, 'name', MAX_FILE_NAME_LENGTH);
    const parentId = optionalId(input.parentId, 'parentId');
    const folder = await ctx.em.transactional(async (em) => {
      const parent = parentId === null ? null : await em.findOne(MediaFolder, parentId, { lockMode: LockMode.PESSIMISTIC_READ });
      if (parentId !== null && !parent) throw badInput('The parent folder does not exist.', 'parentId');
      const folder = em.create(MediaFolder, { name, parent });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'media-folder', id: folder.id, action: 'created', summary: `Created ${named(name)}${parent ? ` in ${named(parent.name)}` : ''}` });
      return folder;
    });
    ctx.log.info({ folderId: folder.id }, 'media folder created');
    return folder;
  }

  /** Renames (`name`) and/or moves (`parentId`, null for top level) a folder; a move into its own subtree is refused. */
  async updateFolder(ctx: RequestContext, id: number, input: { name?: unknown; parentId?: unknown }): Promise<MediaFolder> {
    const rename = input.name !== undefined;
    const move = input.parentId !== undefined;
    if (!rename && !move) throw badInput('Nothing to change: give a name or a parent.', 'name');
    const name = rename ? cleanName(input.name, 'name', MAX_FILE_NAME_LENGTH) : undefined;
    const parentId = move ? optionalId(input.parentId, 'parentId') : undefined;
    return ctx.em.transactional(async (em) => {
      // Moves are serialised, so that two crossing moves cannot make a cycle between them.
      if (move) await em.execute('select pg_advisory_xact_lock(hashtext(?))', ['media_folder_tree']);
      const folder = await em.findOne(MediaFolder, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!folder) throw notFound('Folder');
      const before = folder.name;
      const changes: string[] = [];
      if (name !== undefined && name !== folder.name) changes.push(`renamed to ${named(name)}`);
      if (name !== undefined) folder.name = name;
      if (parentId !== undefined) {
        if (parentId === null) folder.parent = null;
        else {
          const parent = await em.findOne(MediaFolder, parentId);
          if (!parent) throw badInput('The parent folder does not exist.', 'parentId');
          if ((await subtreeIds(em, 'media_folder', id)).includes(parentId)) {
            throw badInput('A folder cannot be moved into itself or one of its subfolders.', 'parentId');
          }
          folder.parent = parent;
        }
        changes.push(folder.parent ? `moved into ${named(folder.parent.name)}` : 'moved to the top level');
      }
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'media-folder', id, action: 'updated', summary: `${named(before)}: ${changes.join(', ') || 'no changes'}` });
      return folder;
    });
  }

  /** Deletes a folder with its subfolders and their files, then their stored bytes. */
  async deleteFolder(ctx: RequestContext, id: number): Promise<{ deletedFolderIds: number[]; deletedFileIds: number[] }> {
    const { folderIds, files } = await ctx.em.transactional(async (em) => {
      // Locking the subtree first makes an upload into it wait, so no file slips in unlisted.
      const folderIds = await subtreeIds(em, 'media_folder', id, { lock: true });
      if (!folderIds.length) throw notFound('Folder');
      const files = await em.find(MediaFile, { folder: { $in: folderIds } }, { fields: ['id', 'filePath', 'thumbnailPath'] });
      const [folder] = await em.execute<{ name: string }[]>('select "name" from "media_folder" where "id" = ?', [id]);
      await em.nativeDelete(MediaFolder, { id }); // subfolders and files follow by ON DELETE CASCADE
      const sub = folderIds.length - 1;
      await recordAudit(withEm(ctx, em), { entity: 'media-folder', id, action: 'deleted', summary: `Deleted ${named(folder!.name)} with ${sub} subfolder${sub === 1 ? '' : 's'} and ${files.length} file${files.length === 1 ? '' : 's'}` });
      return { folderIds, files };
    });
    await this.cache?.changed([CacheKeys.all]);
    await this.removeBytes(ctx, files);
    ctx.log.info({ folderId: id, folders: folderIds.length, files: files.length }, 'media folder deleted');
    return { deletedFolderIds: folderIds, deletedFileIds: files.map((f) => f.id) };
  }

  // ---- files ----

  async getFile(ctx: RequestContext, id: number): Promise<MediaFile> {
    const file = await ctx.em.findOne(MediaFile, id);
    if (!file) throw notFound('File');
    return file;
  }

  /** One page of a folder's files, oldest first. */
  async folderFiles(ctx: RequestContext, folderId: number, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    await this.requireFolder(ctx.em, folderId);
    return this.filePage(ctx.em, { folder: folderId }, args);
  }

  /** One page of every file of the library, oldest first. */
  allFiles(ctx: RequestContext, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    return this.filePage(ctx.em, {}, args);
  }

  /** The REST list: all files (of a folder, when given), optionally a window of them. */
  async listFiles(ctx: RequestContext, options: { folderId?: number; limit?: number; offset?: number } = {}): Promise<MediaFile[]> {
    if (options.folderId !== undefined) await this.requireFolder(ctx.em, options.folderId);
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

  /**
   * Stores the uploaded files in a folder, all or none: every file is received and checked first,
   * then the bytes are stored and the rows written in one transaction; on any failure the stored
   * bytes are removed again.
   */
  async upload(ctx: RequestContext, folderId: number, files: AsyncIterable<IncomingUpload>): Promise<MediaFile[]> {
    await this.requireFolder(ctx.em, folderId); // before reading a byte of the request
    return this.store(ctx, files, async (em) => {
      const folder = await em.findOne(MediaFolder, folderId, { lockMode: LockMode.PESSIMISTIC_READ });
      if (!folder) throw notFound('Folder');
      return folder;
    });
  }

  /** Stores the files in the top-level folder "Product Uploads", made on first use. */
  uploadForProduct(ctx: RequestContext, files: AsyncIterable<IncomingUpload>): Promise<MediaFile[]> {
    return this.store(ctx, files, async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', ['media_product_uploads']);
      const existing = await em.findOne(MediaFolder, { name: PRODUCT_UPLOADS_FOLDER, parent: null }, { orderBy: { id: 'asc' } });
      return existing ?? em.create(MediaFolder, { name: PRODUCT_UPLOADS_FOLDER, parent: null });
    });
  }

  /**
   * Stores files the server made itself into a folder, through exactly the checks (content against
   * extension), thumbnails and storage of an upload, all or none. At most `maxFiles` at once.
   */
  storeGenerated(ctx: RequestContext, folderId: number, files: GeneratedFile[]): Promise<MediaFile[]> {
    return this.upload(ctx, folderId, asUploads(files));
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

  private async store(ctx: RequestContext, files: AsyncIterable<IncomingUpload>, folderFor: (em: EntityManager) => Promise<MediaFolder>): Promise<MediaFile[]> {
    const staged: StagedUpload[] = [];
    try {
      for await (const incoming of files) {
        if (staged.length >= this.maxFiles) {
          incoming.stream.resume();
          throw badInput(`At most ${this.maxFiles} files can be uploaded at once.`, 'files');
        }
        staged.push(await this.stager.stage(incoming));
      }
      if (!staged.length) throw badInput('Choose at least one file to upload.', 'files');
      const created = await this.commit(ctx, staged, folderFor);
      // The responsive sizes are made right after, in the background: the upload does not wait for them.
      this.variants.makeAll(ctx.log, created);
      ctx.log.info({ folderId: created[0]?.folderId, files: created.map((f) => f.id) }, 'media files uploaded');
      return created;
    } finally {
      await this.stager.discard(staged);
    }
  }

  private async commit(ctx: RequestContext, staged: StagedUpload[], folderFor: (em: EntityManager) => Promise<MediaFolder>): Promise<MediaFile[]> {
    const stored: string[] = [];
    try {
      for (const file of staged) {
        await this.storage.put(file.key, { stagedFile: file.stagedFile }, file.format.mime);
        stored.push(file.key);
        if (file.thumbnailKey && file.stagedThumbnail) {
          await this.storage.put(file.thumbnailKey, { stagedFile: file.stagedThumbnail }, 'image/webp');
          stored.push(file.thumbnailKey);
        }
      }
      return await ctx.em.transactional(async (em) => {
        const folder = await folderFor(em);
        const rows = staged.map((file) =>
          em.create(MediaFile, {
            fileName: file.fileName,
            friendlyName: file.fileName,
            filePath: PATH_PREFIX + file.key,
            thumbnailPath: file.thumbnailKey ? PATH_PREFIX + file.thumbnailKey : null,
            folder,
            mimeType: file.format.mime,
            size: file.size,
            width: file.width,
            height: file.height,
          }),
        );
        await em.flush();
        const names = rows.map((row) => row.fileName).join(', ');
        await recordAudit(withEm(ctx, em), { entity: 'media-file', id: rows.length === 1 ? rows[0]!.id : null, action: 'uploaded', summary: `Uploaded ${rows.length} file${rows.length === 1 ? '' : 's'} into ${named(folder.name)}: ${names}` });
        return rows;
      });
    } catch (error) {
      await this.storage.remove(stored).catch((cleanupError: unknown) => ctx.log.error({ err: cleanupError, keys: stored }, 'could not remove stored upload bytes'));
      throw error;
    }
  }

  private filePage(em: EntityManager, where: FilterQuery<MediaFile>, args: FilePageArgs): Promise<ConnectionResult<MediaFile>> {
    const filter: FilterQuery<MediaFile> = args.kind ? { ...(where as object), mimeType: { $like: `${args.kind}/%` } } : where;
    return keysetPage(em, MediaFile, filter, {
      size: pageSize(args.first),
      after: args.after,
      direction: 'asc',
      keys: [{ property: 'id', cursor: 'id', type: 'number', valueOf: (file) => file.id }],
    });
  }


  private async requireFolder(em: EntityManager, id: number): Promise<void> {
    if ((await em.count(MediaFolder, { id })) === 0) throw notFound('Folder');
  }

}

async function* asUploads(files: GeneratedFile[]): AsyncIterable<IncomingUpload> {
  for (const file of files) yield { fileName: file.fileName, stream: Readable.from([file.bytes]) };
}
