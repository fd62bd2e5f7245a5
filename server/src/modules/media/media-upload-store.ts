import { Readable } from 'node:stream';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, notFound } from '../../core/errors.js';
import { named, recordAudit } from '../audit/index.js';
import type { ImageVariants } from './image-variants.js';
import { PATH_PREFIX } from './media-bytes.js';
import { MediaFile } from './media-file.entity.js';
import { MediaFolder } from './media-folder.entity.js';
import type { MediaFolders } from './media-folders.js';
import type { MediaStorage } from './media-storage.js';
import type { IncomingUpload, StagedUpload, UploadStager } from './media-upload.js';

export const PRODUCT_UPLOADS_FOLDER = 'Product Uploads';

/** A file the server made itself (a generated picture or song): its name and its bytes. */
export interface GeneratedFile {
  fileName: string;
  bytes: Buffer;
}

/** Stores files into a folder, all or none: uploaded ones as they are received, and those the server made. */
export class UploadStore {
  constructor(
    private readonly storage: MediaStorage,
    private readonly stager: UploadStager,
    private readonly variants: ImageVariants,
    private readonly folders: Pick<MediaFolders, 'requireFolder'>,
    /** The most files stored at once. */
    private readonly maxFiles: number,
  ) {}

  /**
   * Stores the uploaded files in a folder, all or none: every file is received and checked first,
   * then the bytes are stored and the rows written in one transaction; on any failure the stored
   * bytes are removed again.
   */
  async upload(ctx: RequestContext, folderId: number, files: AsyncIterable<IncomingUpload>): Promise<MediaFile[]> {
    await this.folders.requireFolder(ctx.em, folderId); // before reading a byte of the request
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
}

async function* asUploads(files: GeneratedFile[]): AsyncIterable<IncomingUpload> {
  for (const file of files) yield { fileName: file.fileName, stream: Readable.from([file.bytes]) };
}
