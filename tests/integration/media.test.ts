import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { gif, jpeg, mp3, ogg, png, storedNames, storedPath, uploadGraphQL, uploadRest, wav, webp } from '../helpers/media-fixtures.js';

/** The media library over REST and GraphQL: folders, files, uploads, thumbnails, cascades, access. */

let app: TestApp;
let admin: string;
let customer: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  customer = await app.customer();
});
afterAll(async () => {
  await app?.stop();
});

const json = async (res: Response): Promise<any> => res.json();

async function restFolder(name: string, parentId: number | null = null): Promise<any> {
  const res = await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name, parent_id: parentId } });
  expect(res.status).toBe(201);
  return json(res);
}

const FILE_FIELDS = 'id fileName filePath friendlyName folderId mimeType size width height thumbnailPath kind usages { kind id label }';
const UPLOAD = `mutation Upload($folderId: Int!, $files: [Upload!]!) { uploadMediaFiles(folderId: $folderId, files: $files) { ${FILE_FIELDS} } }`;

describe('REST folders', () => {
  it('creates, lists, renames, moves and deletes folders', async () => {
    const root = await restFolder('  Cards  ');
    expect(root).toEqual({ id: expect.any(Number), name: 'Cards', parent_id: null });
    const child = await restFolder('Birthday', root.id);
    expect(child.parent_id).toBe(root.id);

    const list = await json(await app.request('/api/media/folders', { token: admin }));
    expect(list).toEqual(expect.arrayContaining([root, child]));
    for (const folder of list) expect(Object.keys(folder).sort()).toEqual(['id', 'name', 'parent_id']);

    const renamed = await app.request(`/api/media/folders/${child.id}`, { method: 'PUT', token: admin, json: { friendly_name: 'Birthdays' } });
    expect(renamed.status).toBe(200);
    expect(await json(renamed)).toEqual({ id: child.id, name: 'Birthdays', parent_id: root.id });

    const byName = await app.request(`/api/media/folders/${child.id}`, { method: 'PUT', token: admin, json: { name: 'B-days' } });
    expect((await json(byName)).name).toBe('B-days');

    const moved = await app.request(`/api/media/folders/${child.id}`, { method: 'PUT', token: admin, json: { parent_id: null } });
    expect(await json(moved)).toEqual({ id: child.id, name: 'B-days', parent_id: null });

    expect((await app.request(`/api/media/folders/${child.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await app.request(`/api/media/folders/${child.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('refuses a move into its own subtree with 400 on parent_id', async () => {
    const a = await restFolder('A');
    const b = await restFolder('B', a.id);
    const c = await restFolder('C', b.id);
    for (const target of [a.id, c.id]) {
      const res = await app.request(`/api/media/folders/${a.id}`, { method: 'PUT', token: admin, json: { parent_id: target } });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parent_id' });
    }
    const [row] = await app.sql<{ parent_id: number | null }>('select parent_id from media_folder where id = $1', [a.id]);
    expect(row.parent_id).toBeNull();
  });

  it('answers 400 with the field for empty names and unknown parents, 404 for unknown ids', async () => {
    const empty = await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: '   ', parent_id: null } });
    expect(empty.status).toBe(400);
    expect(await json(empty)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });

    const unknownParent = await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'X', parent_id: 999999 } });
    expect(unknownParent.status).toBe(400);
    expect(await json(unknownParent)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parent_id' });

    const folder = await restFolder('Keep');
    const emptyRename = await app.request(`/api/media/folders/${folder.id}`, { method: 'PUT', token: admin, json: { friendly_name: '' } });
    expect(emptyRename.status).toBe(400);
    expect(await json(emptyRename)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'friendly_name' });

    for (const [method, url] of [
      ['PUT', '/api/media/folders/999999'],
      ['DELETE', '/api/media/folders/999999'],
      ['DELETE', '/api/media/folders/abc'],
      ['GET', '/api/media/files/999999'],
      ['PUT', '/api/media/files/999999'],
      ['DELETE', '/api/media/files/999999'],
    ] as const) {
      const res = await app.request(url, { method, token: admin, json: method === 'PUT' ? { friendly_name: 'x' } : undefined });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(await json(res)).toMatchObject({ code: 'NOT_FOUND' });
    }
    const upload = await uploadRest(app, '/api/media/files/999999', [{ name: 'a.png', data: await png() }], admin);
    expect(upload.status).toBe(404);
  });
});

describe('REST files', () => {
  it('uploads every accepted type, recognised by content, with thumbnails for images', async () => {
    const folder = await restFolder('Everything');
    const files = [
      { name: 'cover.png', data: await png() },
      { name: 'photo.jpeg', data: await jpeg() },
      { name: 'anim.gif', data: await gif() },
      { name: 'pic.webp', data: await webp() },
      { name: 'song.mp3', data: mp3() },
      { name: 'tune.wav', data: wav() },
      { name: 'chant.ogg', data: ogg() },
    ];
    const res = await uploadRest(app, `/api/media/files/${folder.id}`, files, admin);
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created.map((f: any) => [f.file_name, f.mime_type])).toEqual([
      ['cover.png', 'image/png'],
      ['photo.jpeg', 'image/jpeg'],
      ['anim.gif', 'image/gif'],
      ['pic.webp', 'image/webp'],
      ['song.mp3', 'audio/mpeg'],
      ['tune.wav', 'audio/wav'],
      ['chant.ogg', 'audio/ogg'],
    ]);
    const cover = created[0];
    expect(cover).toEqual({
      id: expect.any(Number),
      file_name: 'cover.png',
      file_path: expect.stringMatching(/^uploads\/[A-Za-z0-9_-]+\.png$/),
      friendly_name: 'cover.png',
      folder_id: folder.id,
      mime_type: 'image/png',
      size: files[0].data.length,
      width: 400,
      height: 300,
      thumbnail_path: expect.stringMatching(/^uploads\/[A-Za-z0-9_-]+\.thumb\.webp$/),
    });
    expect(created[1].file_path).toMatch(/\.jpg$/);
    const song = created[4];
    expect(song).toMatchObject({ width: null, height: null, thumbnail_path: null });

    // Bytes on disk: the original untouched, the thumbnail a 320 px wide WebP.
    expect(fs.readFileSync(storedPath(app, cover.file_path)).equals(files[0].data)).toBe(true);
    const thumb = fs.readFileSync(storedPath(app, cover.thumbnail_path));
    const sharp = (await import('sharp')).default;
    expect(await sharp(thumb).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });

    const list = await json(await app.request(`/api/media/files/${folder.id}`, { token: admin }));
    expect(list).toEqual(created);
    const window = await json(await app.request(`/api/media/files/${folder.id}?limit=2&offset=1`, { token: admin }));
    expect(window.map((f: any) => f.id)).toEqual([created[1].id, created[2].id]);
    const all = await json(await app.request('/api/media/files/all', { token: admin }));
    expect(all.map((f: any) => f.id)).toEqual(expect.arrayContaining(created.map((f: any) => f.id)));
  });

  it('keeps only the base name of a path-like file name, and never uses it for the stored path', async () => {
    const folder = await restFolder('Names');
    const res = await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: '../../evil/..\\x\\Sunset Été.png', data: await png(10, 10) }], admin);
    expect(res.status).toBe(201);
    const [file] = await json(res);
    expect(file.file_name).toBe('Sunset Été.png');
    expect(file.file_path).toMatch(/^uploads\/[A-Za-z0-9_-]+\.png$/);
  });

  it('renames a file (friendly_name) and refuses an empty one', async () => {
    const folder = await restFolder('Rename');
    const [file] = await json(await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'a.png', data: await png(20, 20) }], admin));
    const res = await app.request(`/api/media/files/${file.id}`, { method: 'PUT', token: admin, json: { friendly_name: '  Red square ' } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ...file, friendly_name: 'Red square' });
    const empty = await app.request(`/api/media/files/${file.id}`, { method: 'PUT', token: admin, json: { friendly_name: ' ' } });
    expect(empty.status).toBe(400);
    expect(await json(empty)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'friendly_name' });
  });

  it('deletes a file with its bytes (204)', async () => {
    const folder = await restFolder('Delete file');
    const [file] = await json(await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'a.png', data: await png(20, 20) }], admin));
    expect(fs.existsSync(storedPath(app, file.file_path))).toBe(true);
    expect(fs.existsSync(storedPath(app, file.thumbnail_path))).toBe(true);
    expect((await app.request(`/api/media/files/${file.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(fs.existsSync(storedPath(app, file.file_path))).toBe(false);
    expect(fs.existsSync(storedPath(app, file.thumbnail_path))).toBe(false);
    expect(await app.sql('select 1 from media_file where id = $1', [file.id])).toEqual([]);
    expect((await app.request(`/api/${file.file_path}`)).status).toBe(404);
  });

  it('deletes a folder with its subfolders, their files and all their bytes', async () => {
    const top = await restFolder('Tree');
    const mid = await restFolder('Mid', top.id);
    const leaf = await restFolder('Leaf', mid.id);
    const other = await restFolder('Other');
    const uploaded: any[] = [];
    for (const folder of [top, mid, leaf, other]) {
      uploaded.push(...(await json(await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'p.png', data: await png(30, 30) }, { name: 's.wav', data: wav(0.1) }], admin))));
    }
    const [gone, kept] = [uploaded.slice(0, 6), uploaded.slice(6)];
    expect((await app.request(`/api/media/folders/${top.id}`, { method: 'DELETE', token: admin })).status).toBe(204);

    const folders = await app.sql<{ id: number }>('select id from media_folder where id = any($1)', [[top.id, mid.id, leaf.id, other.id]]);
    expect(folders.map((r) => r.id)).toEqual([other.id]);
    const rows = await app.sql<{ id: number }>('select id from media_file where id = any($1) order by id', [uploaded.map((f) => f.id)]);
    expect(rows.map((r) => r.id)).toEqual(kept.map((f) => f.id));
    for (const file of gone) {
      expect(fs.existsSync(storedPath(app, file.file_path))).toBe(false);
      if (file.thumbnail_path) expect(fs.existsSync(storedPath(app, file.thumbnail_path))).toBe(false);
    }
    for (const file of kept) expect(fs.existsSync(storedPath(app, file.file_path))).toBe(true);
  });

  it('upload-for-product puts every file in one top-level "Product Uploads" folder and answers the first', async () => {
    const first = await uploadRest(app, '/api/media/files/upload-for-product', [{ name: 'main.jpg', data: await jpeg() }, { name: 'extra.png', data: await png() }], admin);
    expect(first.status).toBe(201);
    const body = await json(first);
    expect(body).toMatchObject({ file_name: 'main.jpg', mime_type: 'image/jpeg', file_path: expect.stringMatching(/^uploads\//) });
    const second = await json(await uploadRest(app, '/api/media/files/upload-for-product', [{ name: 'again.png', data: await png() }], admin));
    expect(second.folder_id).toBe(body.folder_id);
    const folders = await app.sql<{ id: number; parent_id: number | null }>(`select id, parent_id from media_folder where name = 'Product Uploads'`);
    expect(folders).toEqual([{ id: body.folder_id, parent_id: null }]);
    expect(await app.sql('select 1 from media_file where folder_id = $1', [body.folder_id])).toHaveLength(3);
  });
});

describe('access', () => {
  const routes: [string, string][] = [
    ['GET', '/api/media/folders'],
    ['POST', '/api/media/folders'],
    ['PUT', '/api/media/folders/1'],
    ['DELETE', '/api/media/folders/1'],
    ['GET', '/api/media/files/all'],
    ['GET', '/api/media/files/1'],
    ['POST', '/api/media/files/1'],
    ['POST', '/api/media/files/upload-for-product'],
    ['PUT', '/api/media/files/1'],
    ['DELETE', '/api/media/files/1'],
  ];

  it.each(routes)('%s %s is 401 anonymous and 403 for a customer', async (method, url) => {
    const anonymous = await app.request(url, { method, json: method === 'PUT' || method === 'POST' ? {} : undefined });
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({ code: 'UNAUTHENTICATED' });
    const asCustomer = await app.request(url, { method, token: customer, json: method === 'PUT' || method === 'POST' ? {} : undefined });
    expect(asCustomer.status).toBe(403);
    expect(await json(asCustomer)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a customer cannot upload: nothing is stored', async () => {
    const folder = await restFolder('Guarded');
    await app.services.media.imageSizesMade(); // earlier uploads' sizes, made in the background
    const before = storedNames(app);
    const res = await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'a.png', data: await png() }], customer);
    expect(res.status).toBe(403);
    const gql = await uploadGraphQL(app, UPLOAD, { folderId: folder.id }, [{ name: 'a.png', data: await png() }], customer);
    expect(gql.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(storedNames(app)).toEqual(before);
  });

  it('every GraphQL media operation is UNAUTHENTICATED anonymous and FORBIDDEN for a customer', async () => {
    const operations = [
      'query { mediaFolders { id } }',
      'query { mediaFiles(folderId: 1) { totalCount } }',
      'query { allMediaFiles { totalCount } }',
      'query { mediaFile(id: 1) { id } }',
      'mutation { createMediaFolder(name: "x") { id } }',
      'mutation { renameMediaFolder(id: 1, name: "x") { id } }',
      'mutation { moveMediaFolder(id: 1, parentId: null) { id } }',
      'mutation { deleteMediaFolder(id: 1) { deletedFolderIds } }',
      'mutation { renameMediaFile(id: 1, friendlyName: "x") { id } }',
      'mutation { deleteMediaFile(id: 1) }',
    ];
    for (const query of operations) {
      expect((await app.graphql(query)).body.errors?.[0].extensions?.code, query).toBe('UNAUTHENTICATED');
      expect((await app.graphql(query, {}, customer)).body.errors?.[0].extensions?.code, query).toBe('FORBIDDEN');
    }
  });
});

describe('GraphQL', () => {
  const FOLDER = 'id name parentId';

  it('manages folders: create, flat list, rename, move (refusing cycles), delete', async () => {
    const gql = (query: string, variables?: Record<string, unknown>) => app.graphql(query, variables, admin);
    const top = (await gql(`mutation { createMediaFolder(name: " Songs ") { ${FOLDER} } }`)).body.data.createMediaFolder;
    expect(top).toEqual({ id: expect.any(Number), name: 'Songs', parentId: null });
    const sub = (await gql(`mutation($p: Int) { createMediaFolder(name: "Rock", parentId: $p) { ${FOLDER} } }`, { p: top.id })).body.data.createMediaFolder;
    expect(sub.parentId).toBe(top.id);

    const list = (await gql(`{ mediaFolders { ${FOLDER} } }`)).body.data.mediaFolders;
    expect(list).toEqual(expect.arrayContaining([top, sub]));

    const renamed = (await gql(`mutation($id: Int!) { renameMediaFolder(id: $id, name: "Pop") { ${FOLDER} } }`, { id: sub.id })).body.data.renameMediaFolder;
    expect(renamed).toEqual({ ...sub, name: 'Pop' });

    const cycle = await gql(`mutation($id: Int!, $p: Int) { moveMediaFolder(id: $id, parentId: $p) { id } }`, { id: top.id, p: sub.id });
    expect(cycle.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parentId' });
    const self = await gql(`mutation($id: Int!, $p: Int) { moveMediaFolder(id: $id, parentId: $p) { id } }`, { id: top.id, p: top.id });
    expect(self.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parentId' });

    const moved = (await gql(`mutation($id: Int!) { moveMediaFolder(id: $id, parentId: null) { ${FOLDER} } }`, { id: sub.id })).body.data.moveMediaFolder;
    expect(moved.parentId).toBeNull();
    const back = (await gql(`mutation($id: Int!, $p: Int) { moveMediaFolder(id: $id, parentId: $p) { ${FOLDER} } }`, { id: sub.id, p: top.id })).body.data.moveMediaFolder;
    expect(back.parentId).toBe(top.id);

    const empty = await gql(`mutation { createMediaFolder(name: "  ") { id } }`);
    expect(empty.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const badParent = await gql(`mutation { createMediaFolder(name: "x", parentId: 999999) { id } }`);
    expect(badParent.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'parentId' });
    const unknown = await gql(`mutation { renameMediaFolder(id: 999999, name: "x") { id } }`);
    expect(unknown.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const deleted = (await gql(`mutation($id: Int!) { deleteMediaFolder(id: $id) { deletedFolderIds deletedFileIds } }`, { id: top.id })).body.data.deleteMediaFolder;
    expect(deleted.deletedFolderIds.sort()).toEqual([top.id, sub.id].sort());
    expect((await gql(`mutation { deleteMediaFolder(id: ${top.id}) { deletedFolderIds } }`)).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('uploads over the multipart request spec, pages a folder with cursors, renames and deletes files', async () => {
    const folder = (await app.graphql(`mutation { createMediaFolder(name: "Paged") { id } }`, {}, admin)).body.data.createMediaFolder;
    const files = [
      { name: 'one.png', data: await png(40, 30) },
      { name: 'two.jpg', data: await jpeg(40, 30) },
      { name: 'three.mp3', data: mp3() },
      { name: 'four.wav', data: wav(0.1) },
      { name: 'five.webp', data: await webp(40, 30) },
    ];
    const upload = await uploadGraphQL(app, UPLOAD, { folderId: folder.id }, files, admin);
    expect(upload.status).toBe(200);
    expect(upload.body.errors).toBeUndefined();
    const created = upload.body.data.uploadMediaFiles;
    expect(created).toHaveLength(5);
    expect(created[0]).toEqual({
      id: expect.any(Number),
      fileName: 'one.png',
      filePath: expect.stringMatching(/^uploads\/.+\.png$/),
      friendlyName: 'one.png',
      folderId: folder.id,
      mimeType: 'image/png',
      size: files[0].data.length,
      width: 40,
      height: 30,
      thumbnailPath: expect.stringMatching(/^uploads\/.+\.thumb\.webp$/),
      kind: 'IMAGE',
      usages: [],
    });
    expect(created[2]).toMatchObject({ kind: 'AUDIO', mimeType: 'audio/mpeg', thumbnailPath: null });

    const PAGE = `query($folderId: Int!, $first: Int, $after: String, $kind: MediaKind) {
      mediaFiles(folderId: $folderId, first: $first, after: $after, kind: $kind) {
        totalCount edges { cursor node { id fileName } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }`;
    const ids: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const res = await app.graphql(PAGE, { folderId: folder.id, first: 2, after }, admin);
      const connection: any = res.body.data.mediaFiles;
      expect(connection.totalCount).toBe(5);
      ids.push(...connection.edges.map((e: any) => e.node.id));
      expect(connection.pageInfo.hasNextPage).toBe(page < 2);
      expect(connection.pageInfo.hasPreviousPage).toBe(page > 0);
      expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1).cursor);
      after = connection.pageInfo.endCursor;
    }
    expect(ids).toEqual(created.map((f: any) => f.id));

    const audio = (await app.graphql(PAGE, { folderId: folder.id, kind: 'AUDIO' }, admin)).body.data.mediaFiles;
    expect(audio.totalCount).toBe(2);
    expect(audio.edges.map((e: any) => e.node.fileName)).toEqual(['three.mp3', 'four.wav']);

    const badCursor = await app.graphql(PAGE, { folderId: folder.id, after: 'not-a-cursor' }, admin);
    expect(badCursor.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    const tooMany = await app.graphql(PAGE, { folderId: folder.id, first: 101 }, admin);
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    const unknownFolder = await app.graphql(PAGE, { folderId: 999999 }, admin);
    expect(unknownFolder.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const all = (await app.graphql(`{ allMediaFiles(first: 100) { totalCount edges { node { id } } } }`, {}, admin)).body.data.allMediaFiles;
    expect(all.edges.map((e: any) => e.node.id)).toEqual(expect.arrayContaining(ids));

    const one = (await app.graphql(`query($id: Int!) { mediaFile(id: $id) { id friendlyName } }`, { id: ids[0] }, admin)).body.data.mediaFile;
    expect(one).toEqual({ id: ids[0], friendlyName: 'one.png' });

    const renamed = await app.graphql(`mutation($id: Int!) { renameMediaFile(id: $id, friendlyName: " First ") { id friendlyName fileName } }`, { id: ids[0] }, admin);
    expect(renamed.body.data.renameMediaFile).toEqual({ id: ids[0], friendlyName: 'First', fileName: 'one.png' });
    const emptyName = await app.graphql(`mutation($id: Int!) { renameMediaFile(id: $id, friendlyName: "") { id } }`, { id: ids[0] }, admin);
    expect(emptyName.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'friendlyName' });

    const deleted = await app.graphql(`mutation($id: Int!) { deleteMediaFile(id: $id) }`, { id: ids[0] }, admin);
    expect(deleted.body.data.deleteMediaFile).toBe(true);
    expect(fs.existsSync(storedPath(app, created[0].filePath))).toBe(false);
    expect(fs.existsSync(storedPath(app, created[0].thumbnailPath))).toBe(false);
    const again = await app.graphql(`mutation($id: Int!) { deleteMediaFile(id: $id) }`, { id: ids[0] }, admin);
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const gone = await app.graphql(`mutation($id: Int!) { deleteMediaFolder(id: $id) { deletedFolderIds deletedFileIds } }`, { id: folder.id }, admin);
    expect(gone.body.data.deleteMediaFolder.deletedFileIds.sort()).toEqual(ids.slice(1).sort());
    for (const file of created.slice(1)) expect(fs.existsSync(storedPath(app, file.filePath))).toBe(false);
  });

  it('uploadProductMedia lands in "Product Uploads"', async () => {
    const res = await uploadGraphQL(app, `mutation($files: [Upload!]!) { uploadProductMedia(files: $files) { id folderId fileName } }`, {}, [{ name: 'p.png', data: await png() }], admin);
    expect(res.body.errors).toBeUndefined();
    const [file] = res.body.data.uploadProductMedia;
    const [folder] = await app.sql<{ name: string; parent_id: number | null }>('select name, parent_id from media_folder where id = $1', [file.folderId]);
    expect(folder).toEqual({ name: 'Product Uploads', parent_id: null });
  });

  it('uploads into an unknown folder are NOT_FOUND and store nothing', async () => {
    await app.services.media.imageSizesMade(); // earlier uploads' sizes, made in the background
    const before = storedNames(app);
    const res = await uploadGraphQL(app, UPLOAD, { folderId: 999999 }, [{ name: 'a.png', data: await png() }], admin);
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(storedNames(app)).toEqual(before);
  });

  it('reads a page of files in a bounded number of queries', async () => {
    const folder = await restFolder('Counted');
    await uploadRest(app, `/api/media/files/${folder.id}`, Array.from({ length: 12 }, (_, i) => ({ name: `s${i}.wav`, data: wav(0.05) })), admin);
    const queries = await recordQueries(app, async () => {
      const res = await app.graphql(`query($id: Int!) { mediaFiles(folderId: $id, first: 100) { totalCount edges { node { ${FILE_FIELDS} } } } }`, { id: folder.id }, admin);
      expect(res.body.data.mediaFiles.edges).toHaveLength(12);
    });
    const media = queries.filter((q) => /media_f/.test(q));
    expect(media.length).toBeGreaterThan(0);
    expect(media.length).toBeLessThanOrEqual(3); // folder check, page, count
  });

  it('batches usages: one provider call per request for all files of the page', async () => {
    const folder = await restFolder('Used');
    const created = await json(await uploadRest(app, `/api/media/files/${folder.id}`, [1, 2, 3].map((i) => ({ name: `u${i}.wav`, data: wav(0.05) })), admin));
    const calls: number[][] = [];
    const unregister = app.services.media.registerUsageProvider(async (_em, fileIds) => {
      calls.push([...fileIds].sort());
      return fileIds.filter((id) => id === created[1].id).map((fileId) => ({ fileId, kind: 'product', id: 7, label: 'Birthday card' }));
    });
    try {
      const res = await app.graphql(`query($id: Int!) { mediaFiles(folderId: $id) { edges { node { id usages { kind id label } } } } }`, { id: folder.id }, admin);
      const usages = res.body.data.mediaFiles.edges.map((e: any) => e.node.usages);
      expect(usages).toEqual([[], [{ kind: 'product', id: 7, label: 'Birthday card' }], []]);
      expect(calls).toEqual([created.map((f: any) => f.id).sort()]);
    } finally {
      unregister();
    }
  });
});
