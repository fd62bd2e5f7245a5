import { badInput } from '../../../server/src/core/errors.js';
import type { MediaFile } from '../../../server/src/modules/media/media-file.entity.js';
import type { MediaFolder } from '../../../server/src/modules/media/media-folder.entity.js';
import type { Services } from '../../../server/src/services.js';
import { multipartUploads } from '../multipart.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const restFolder = (folder: MediaFolder) => ({ id: folder.id, name: folder.name, parent_id: folder.parentId });

const restFile = (file: MediaFile) => ({
  id: file.id,
  file_name: file.fileName,
  file_path: file.filePath,
  friendly_name: file.friendlyName,
  folder_id: file.folderId,
  mime_type: file.mimeType,
  size: file.size,
  width: file.width,
  height: file.height,
  thumbnail_path: file.thumbnailPath,
});

/** A non-negative integer query parameter, or undefined when absent. */
function queryInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) throw badInput(`${name} must be a non-negative integer.`, name);
  return Number(value);
}

const FIELDS = { parentId: 'parent_id', friendlyName: 'friendly_name', folderId: 'folder_id' };

export function mediaRoutes({ media }: Services): RouteDef[] {
  const uploads = (req: Parameters<RouteDef['handler']>[1]) =>
    multipartUploads(req, { field: 'files', maxFiles: media.maxFiles, maxFileBytes: media.maxFileBytes });

  return [
    {
      method: 'get',
      path: '/media/folders',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await media.listFolders(ctx)).map(restFolder));
      },
    },
    {
      method: 'post',
      path: '/media/folders',
      access: 'admin',
      async handler(ctx, req, res) {
        const { name, parent_id: parentId } = body(req);
        res.status(201).json(restFolder(await withRestFields(media.createFolder(ctx, { name, parentId }), FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/media/folders/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        const id = pathId(req.params.id, 'Folder');
        const input = body(req);
        // The contract sends the new name as friendly_name; `name` is accepted too, and parent_id moves it.
        const nameKey = input.friendly_name !== undefined ? 'friendly_name' : 'name';
        const change = { name: input[nameKey], parentId: 'parent_id' in input ? (input.parent_id ?? null) : undefined };
        res.json(restFolder(await withRestFields(media.updateFolder(ctx, id, change), { ...FIELDS, name: nameKey })));
      },
    },
    {
      method: 'delete',
      path: '/media/folders/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await media.deleteFolder(ctx, pathId(req.params.id, 'Folder'));
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/media/files/all',
      access: 'admin',
      async handler(ctx, req, res) {
        const files = await media.listFiles(ctx, { limit: queryInt(req.query.limit, 'limit'), offset: queryInt(req.query.offset, 'offset') });
        res.json(files.map(restFile));
      },
    },
    {
      method: 'get',
      path: '/media/files/:folderId',
      access: 'admin',
      async handler(ctx, req, res) {
        const folderId = pathId(req.params.folderId, 'Folder');
        const files = await media.listFiles(ctx, { folderId, limit: queryInt(req.query.limit, 'limit'), offset: queryInt(req.query.offset, 'offset') });
        res.json(files.map(restFile));
      },
    },
    {
      method: 'post',
      path: '/media/files/upload-for-product',
      access: 'admin',
      async handler(ctx, req, res) {
        const [first] = await media.uploadForProduct(ctx, uploads(req));
        res.status(201).json(restFile(first));
      },
    },
    {
      method: 'post',
      path: '/media/files/:folderId',
      access: 'admin',
      async handler(ctx, req, res) {
        const folderId = pathId(req.params.folderId, 'Folder');
        res.status(201).json((await media.upload(ctx, folderId, uploads(req))).map(restFile));
      },
    },
    {
      method: 'put',
      path: '/media/files/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        const id = pathId(req.params.id, 'File');
        const input = body(req);
        const nameKey = input.friendly_name !== undefined ? 'friendly_name' : 'name';
        res.json(restFile(await withRestFields(media.renameFile(ctx, id, input[nameKey]), { ...FIELDS, friendlyName: nameKey })));
      },
    },
    {
      method: 'delete',
      path: '/media/files/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await media.deleteFile(ctx, pathId(req.params.id, 'File'));
        res.status(204).end();
      },
    },
  ];
}
