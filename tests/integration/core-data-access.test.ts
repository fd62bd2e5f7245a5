import 'reflect-metadata';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext, createSystemContext, withEm, type RequestContext } from '../../server/src/core/context.js';
import { conflictOnUnique } from '../../server/src/core/db-errors.js';
import { AppError, conflict } from '../../server/src/core/errors.js';
import { encodeCursor, keysetPage } from '../../server/src/core/pagination.js';
import { subtreeIds } from '../../server/src/core/tree.js';
import { Role } from '../../server/src/core/viewer.js';
import { Category } from '../../server/src/modules/catalogue/category.entity.js';
import { ProductType } from '../../server/src/modules/catalogue/product-type.entity.js';
import { MediaKind } from '../../server/src/modules/media/media-formats.js';
import { checkedImage, checkedMediaFiles } from '../../server/src/modules/media/media-references.js';
import { png, uploadRest, wav } from '../helpers/media-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
const log = pino({ level: 'silent' });
const context = (): RequestContext => createSystemContext({ em: app.orm.em.fork(), log, task: 'test' });

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
});
afterAll(async () => {
  await app?.stop();
});

async function category(name: string, parentId: number | null = null): Promise<number> {
  const res = await app.request('/api/categories', { method: 'POST', json: { name, parent_id: parentId }, token: admin });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

describe('the keyset page', () => {
  it('pages forward in key order, with a cursor per row and the total', async () => {
    const top = await category('Paged');
    for (const name of ['b', 'a', 'c']) await category(`${name}-page`, top);
    const ctx = context();
    const keys = [
      { property: 'name', cursor: 'n', type: 'string' as const, valueOf: (c: Category) => c.name },
      { property: 'id', cursor: 'id', type: 'number' as const, valueOf: (c: Category) => c.id },
    ];
    const first = await keysetPage(ctx.em, Category, { parent: top }, { size: 2, direction: 'asc', keys });
    expect(first.edges.map((e) => e.node.name)).toEqual(['a-page', 'b-page']);
    expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    const second = await keysetPage(ctx.em, Category, { parent: top }, { size: 2, after: first.pageInfo.endCursor, direction: 'asc', keys });
    expect(second.edges.map((e) => e.node.name)).toEqual(['c-page']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const down = await keysetPage(ctx.em, Category, { parent: top }, { size: 5, direction: 'desc', keys });
    expect(down.edges.map((e) => e.node.name)).toEqual(['c-page', 'b-page', 'a-page']);
  });

  it('refuses a cursor of another list or a broken one as BAD_USER_INPUT on after', async () => {
    const ctx = context();
    const keys = [{ property: 'createdAt', cursor: 't', type: 'date' as const, valueOf: (c: Category) => c.id }];
    for (const after of ['not a cursor', encodeCursor({ id: 3 }), encodeCursor({ t: 'yesterday' }), encodeCursor({ t: 5 })]) {
      await expect(keysetPage(ctx.em, Category, {}, { size: 2, after, direction: 'desc', keys })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    }
  });
});

describe('the subtree query', () => {
  it('answers a node and everything below it, and nothing for a node that does not exist', async () => {
    const root = await category('Tree root');
    const child = await category('Tree child', root);
    const grandchild = await category('Tree grandchild', child);
    const other = await category('Tree other');
    const ctx = context();
    expect((await subtreeIds(ctx.em, 'category', root)).sort((a, b) => a - b)).toEqual([root, child, grandchild]);
    expect(await subtreeIds(ctx.em, 'category', grandchild)).toEqual([grandchild]);
    expect(await subtreeIds(ctx.em, 'category', other)).toEqual([other]);
    expect(await subtreeIds(ctx.em, 'category', 999_999)).toEqual([]);
    expect(await subtreeIds(ctx.em, 'media_folder', 999_999, { lock: true })).toEqual([]);
  });
});

describe('the unique-clash mapping', () => {
  it('turns a unique violation into the given conflict and lets every other error through', async () => {
    const ctx = context();
    const clash = async () => {
      ctx.em.create(ProductType, { name: 'Twice' });
      ctx.em.create(ProductType, { name: 'Twice' });
      await ctx.em.flush();
    };
    await expect(conflictOnUnique(clash, () => conflict('Taken.', 'name'))).rejects.toMatchObject({ code: 'CONFLICT', field: 'name', message: 'Taken.' });
    const other = new Error('something else');
    await expect(conflictOnUnique(() => Promise.reject(other), () => conflict('Taken.'))).rejects.toBe(other);
    await expect(conflictOnUnique(async () => 7, () => conflict('Taken.'))).resolves.toBe(7);
  });
});

describe('the media reference check', () => {
  it('reads every wanted file in one query and names the field of the first that fails', async () => {
    const folder = await app.request('/api/media/folders', { method: 'POST', json: { name: 'Refs' }, token: admin });
    const folderId = (await folder.json()).id;
    const [image, song] = await (await uploadRest(app, `/api/media/files/${folderId}`, [
      { name: 'pic.png', data: await png() },
      { name: 'song.wav', data: wav() },
    ], admin)).json();
    const ctx = context();
    const wanted = new Map([
      ['mainImageId', { id: image.id, kind: MediaKind.IMAGE }],
      ['eGreetingCard.song1Id', { id: song.id, kind: MediaKind.AUDIO }],
    ]);
    let found: Map<number, unknown> | undefined;
    const queries = await recordQueries(app, async () => {
      found = await checkedMediaFiles(ctx.em, wanted);
    });
    expect(queries).toHaveLength(1);
    expect([...found!.keys()].sort()).toEqual([image.id, song.id].sort());
    await expect(checkedMediaFiles(ctx.em, new Map([['associatedImageIds.2', { id: 999_999, kind: MediaKind.IMAGE }]]))).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'associatedImageIds' });
    await expect(checkedImage(ctx.em, song.id, 'mediaId')).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'mediaId', message: '"song.wav" is not an image.' });
    await expect(checkedMediaFiles(ctx.em, new Map([['eGreetingCard.song2Id', { id: image.id, kind: MediaKind.AUDIO }]]))).rejects.toMatchObject({ field: 'eGreetingCard.song2Id' });
    expect((await checkedImage(ctx.em, image.id, 'mediaId')).id).toBe(image.id);
  });
});

describe('the request context', () => {
  it('says whether the caller is an admin', async () => {
    const anonymous = createRequestContext({ em: () => app.orm.em.fork(), requestId: 'r', ip: '1.2.3.4', log, authenticate: async () => { throw new AppError('UNAUTHENTICATED', 'no'); } });
    expect(await anonymous.isAdmin()).toBe(false);
    const badToken = createRequestContext({ em: () => app.orm.em.fork(), requestId: 'r', ip: '1.2.3.4', log, authorization: 'Bearer nope', authenticate: async () => { throw new AppError('UNAUTHENTICATED', 'expired'); } });
    expect(await badToken.isAdmin()).toBe(false);
    const asCustomer = createSystemContext({ em: app.orm.em.fork(), log, task: 't', actor: { id: 1, role: Role.CUSTOMER } });
    expect(await asCustomer.isAdmin()).toBe(false);
    const asAdmin = createSystemContext({ em: app.orm.em.fork(), log, task: 't', actor: { id: 1, role: Role.ADMIN } });
    expect(await asAdmin.isAdmin()).toBe(true);
    expect(await withEm(asAdmin, app.orm.em.fork()).isAdmin()).toBe(true);
  });

  it('batches the loads of one tick into one call, per loader name and per context', async () => {
    const ctx = context();
    const batches: number[][] = [];
    const load = async (keys: readonly number[]) => {
      batches.push([...keys]);
      return new Map(keys.filter((k) => k !== 3).map((k) => [k, k * 10]));
    };
    const loaded = await Promise.all([1, 2, 3].map((k) => ctx.loader<number, number>('tens', load).load(k)));
    expect(loaded).toEqual([10, 20, null]);
    expect(batches).toEqual([[1, 2, 3]]);
    // The same name in the same context is the same loader (answers are remembered for the request).
    await ctx.loader<number, number>('tens', load).load(2);
    expect(batches).toHaveLength(1);
    // A transaction's context has loaders of its own: it never reads through another manager's loader.
    const tx = withEm(ctx, app.orm.em.fork());
    expect(await tx.loader<number, number>('tens', load).load(2)).toBe(20);
    expect(batches).toEqual([[1, 2, 3], [2]]);
  });
});
