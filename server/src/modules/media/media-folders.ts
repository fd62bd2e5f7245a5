import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, notFound } from '../../core/errors.js';
import { cleanName, optionalId } from '../../core/input.js';
import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { subtreeIds } from '../../core/tree.js';
import { MAX_FILE_NAME_LENGTH } from '../../rules/index.js';
import { named, recordAudit } from '../audit/index.js';
import type { MediaBytes } from './media-bytes.js';
import { MediaFile } from './media-file.entity.js';
import { MediaFolder } from './media-folder.entity.js';

/** The library's folders: a tree whose moves and deletes take their subtrees along. */
export class MediaFolders {
  constructor(
    /** File names and paths show in storefront answers: deletes drop those answers. */
    private readonly cache: ReadCache | null,
    private readonly bytes: Pick<MediaBytes, 'removeBytes'>,
  ) {}

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
    await this.bytes.removeBytes(ctx, files);
    ctx.log.info({ folderId: id, folders: folderIds.length, files: files.length }, 'media folder deleted');
    return { deletedFolderIds: folderIds, deletedFileIds: files.map((f) => f.id) };
  }

  async requireFolder(em: EntityManager, id: number): Promise<void> {
    if ((await em.count(MediaFolder, { id })) === 0) throw notFound('Folder');
  }
}
