import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { html, jpeg, mp3, png, stagedNames, storedNames, uploadGraphQL, uploadRest, wav, type FixtureFile } from '../helpers/media-fixtures.js';

/**
 * Every way an upload can fail, over REST and GraphQL: wrong content (415), too large (413), too
 * many files or no name (400), and failures part-way, which must leave neither rows nor bytes.
 * The app runs with a tiny size limit (0.05 MB = 52,428 bytes).
 */

let app: TestApp;
let admin: string;
let folderId: number;

const LIMIT_BYTES = Math.floor(0.05 * 1024 * 1024);
const UPLOAD = `mutation Upload($folderId: Int!, $files: [Upload!]!) { uploadMediaFiles(folderId: $folderId, files: $files) { id } }`;

beforeAll(async () => {
  app = await startTestApp({ maxUploadMb: 0.05 });
  admin = await app.login();
  const res = await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'Failures', parent_id: null } });
  folderId = ((await res.json()) as { id: number }).id;
});
afterAll(async () => {
  await app?.stop();
});

const fileRows = async () => (await app.sql<{ n: string }>('select count(*) as n from media_file'))[0].n;

/** Runs a failing upload both ways and checks the status, the code and that nothing was left behind. */
async function expectRefused(files: FixtureFile[], status: number, code: string, field?: string) {
  await app.services.media.imageSizesMade(); // earlier uploads' sizes, made in the background
  const rowsBefore = await fileRows();
  const storedBefore = storedNames(app);

  const rest = await uploadRest(app, `/api/media/files/${folderId}`, files, admin);
  expect(rest.status).toBe(status);
  const body = (await rest.json()) as { code: string; field?: string; message: string };
  expect(body.code).toBe(code);
  expect(body.message).toEqual(expect.any(String));
  if (field) expect(body.field).toBe(field);

  const gql = await uploadGraphQL(app, UPLOAD, { folderId }, files, admin);
  expect(gql.body.errors?.[0].extensions?.code).toBe(code);
  if (field) expect(gql.body.errors?.[0].extensions?.field).toBe(field);

  expect(await fileRows()).toBe(rowsBefore);
  expect(storedNames(app)).toEqual(storedBefore);
  expect(stagedNames(app)).toEqual([]);
}

describe('content checks (415)', () => {
  it('refuses a .png that holds HTML', async () => {
    await expectRefused([{ name: 'innocent.png', data: html(), type: 'image/png' }], 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a .txt, a name without extension and an empty file', async () => {
    await expectRefused([{ name: 'notes.txt', data: Buffer.from('hello') }], 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRefused([{ name: 'noextension', data: await png(10, 10) }], 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRefused([{ name: 'empty.png', data: Buffer.alloc(0) }], 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses content of another accepted type than the extension says', async () => {
    await expectRefused([{ name: 'photo.png', data: await jpeg(10, 10) }], 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRefused([{ name: 'song.wav', data: mp3() }], 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRefused([{ name: 'cover.jpg', data: wav(0.1) }], 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an image whose header is right but whose content cannot be decoded', async () => {
    const broken = Buffer.concat([(await png(50, 50)).subarray(0, 40), Buffer.alloc(200, 7)]);
    await expectRefused([{ name: 'broken.png', data: broken }], 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts .jpeg and .jpg alike for JPEG content', async () => {
    const res = await uploadRest(app, `/api/media/files/${folderId}`, [{ name: 'a.JPEG', data: await jpeg(10, 10) }, { name: 'b.jpg', data: await jpeg(10, 10) }], admin);
    expect(res.status).toBe(201);
  });
});

describe('limits', () => {
  it('refuses a file over MAX_UPLOAD_MB with 413, without storing any of it', async () => {
    const big = Buffer.concat([wav(0.1), Buffer.alloc(LIMIT_BYTES * 4, 1)]);
    await expectRefused([{ name: 'long.wav', data: big }], 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a file of exactly the limit', async () => {
    const header = wav(0.01);
    const exact = Buffer.concat([header, Buffer.alloc(LIMIT_BYTES - header.length)]);
    const res = await uploadRest(app, `/api/media/files/${folderId}`, [{ name: 'exact.wav', data: exact }], admin);
    expect(res.status).toBe(201);
  });

  it('refuses more than 20 files with 400, and takes 20', async () => {
    const small = wav(0.01);
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.wav`, data: small }));
    await expectRefused(files(21), 400, 'BAD_USER_INPUT', 'files');
    const twenty = await uploadRest(app, `/api/media/files/${folderId}`, files(20), admin);
    expect(twenty.status).toBe(201);
    expect((await twenty.json()) as unknown[]).toHaveLength(20);
    const gql = await uploadGraphQL(app, UPLOAD, { folderId }, files(20), admin);
    expect(gql.body.data.uploadMediaFiles).toHaveLength(20);
  });

  it('refuses files without a name with 400', async () => {
    await expectRefused([{ name: '', data: await png(10, 10) }], 400, 'BAD_USER_INPUT', 'files');
    await expectRefused([{ name: '  ', data: await png(10, 10) }], 400, 'BAD_USER_INPUT', 'files');
  });

  it('refuses an upload without files, or not multipart, with 400', async () => {
    const none = await app.request(`/api/media/files/${folderId}`, { method: 'POST', token: admin, body: new FormData() });
    expect(none.status).toBe(400);
    const notMultipart = await app.request(`/api/media/files/${folderId}`, { method: 'POST', token: admin, json: { files: [] } });
    expect(notMultipart.status).toBe(400);
    expect(((await notMultipart.json()) as { code: string }).code).toBe('BAD_USER_INPUT');
    const otherField = new FormData();
    otherField.append('file', new Blob([new Uint8Array(await png(10, 10))]), 'a.png');
    const wrongField = await app.request(`/api/media/files/${folderId}`, { method: 'POST', token: admin, body: otherField });
    expect(wrongField.status).toBe(400);
    const gql = await uploadGraphQL(app, UPLOAD, { folderId }, [], admin);
    expect(gql.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'files' });
  });
});

describe('all or nothing', () => {
  it('refuses the whole request when one file among good ones is bad', async () => {
    const good = [
      { name: 'a.png', data: await png(20, 20) },
      { name: 'b.mp3', data: mp3() },
    ];
    await expectRefused([...good, { name: 'c.png', data: html() }], 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRefused([...good, { name: 'big.wav', data: Buffer.concat([wav(0.01), Buffer.alloc(LIMIT_BYTES * 2)]) }, ...good], 413, 'PAYLOAD_TOO_LARGE');
    await expectRefused([...good, { name: 'c.txt', data: Buffer.from('x') }], 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('rolls back rows and removes stored bytes when the database fails part-way', async () => {
    // The third row of the request fails to insert, after the bytes of all three have been stored.
    await app.sql(`create function media_boom() returns trigger language plpgsql as $$
      begin if new.file_name = 'boom.png' then raise exception 'boom'; end if; return new; end $$`);
    await app.sql(`create trigger media_boom before insert on media_file for each row execute function media_boom()`);
    try {
      const rowsBefore = await fileRows();
      await app.services.media.imageSizesMade();
      const storedBefore = storedNames(app);
      const files = [
        { name: 'ok1.png', data: await png(20, 20) },
        { name: 'ok2.wav', data: wav(0.05) },
        { name: 'boom.png', data: await png(20, 20) },
      ];
      const rest = await uploadRest(app, `/api/media/files/${folderId}`, files, admin);
      expect(rest.status).toBe(500);
      expect(await rest.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
      const gql = await uploadGraphQL(app, UPLOAD, { folderId }, files, admin);
      expect(gql.body.errors?.[0].extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      const product = await uploadRest(app, '/api/media/files/upload-for-product', files, admin);
      expect(product.status).toBe(500);

      expect(await fileRows()).toBe(rowsBefore);
      expect(storedNames(app)).toEqual(storedBefore);
      expect(stagedNames(app)).toEqual([]);
      expect(await app.sql(`select 1 from media_folder where name = 'Product Uploads'`)).toEqual([]);
    } finally {
      await app.sql('drop trigger media_boom on media_file');
      await app.sql('drop function media_boom()');
    }
  });
});
