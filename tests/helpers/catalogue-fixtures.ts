import { png, uploadRest, wav } from './media-fixtures.js';
import type { TestApp } from './test-app.js';

export interface RestFile {
  id: number;
  file_path: string;
  friendly_name: string;
  thumbnail_path: string | null;
}

/** A media folder with `images` PNGs and `songs` WAVs, uploaded over REST. */
export async function uploadMedia(app: TestApp, token: string, options: { images: number; songs: number; folder?: string }): Promise<{ images: RestFile[]; songs: RestFile[] }> {
  const folderRes = await app.request('/api/media/folders', { method: 'POST', json: { name: options.folder ?? 'Card art', parent_id: null }, token });
  const folder = await folderRes.json();
  const files = [
    ...(await Promise.all(Array.from({ length: options.images }, async (_, i) => ({ name: `image-${i + 1}.png`, data: await png(320 + i, 240) })))),
    ...Array.from({ length: options.songs }, (_, i) => ({ name: `song-${i + 1}.wav`, data: wav(0.05 + i * 0.01) })),
  ];
  const res = await uploadRest(app, `/api/media/files/${folder.id}`, files, token);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const created: RestFile[] = await res.json();
  return { images: created.slice(0, options.images), songs: created.slice(options.images) };
}

/** Creates a category over REST and returns its id. */
export async function restCategory(app: TestApp, token: string, name: string, parentId: number | null = null): Promise<number> {
  const res = await app.request('/api/categories', { method: 'POST', json: { name, parent_id: parentId }, token });
  if (res.status !== 201) throw new Error(`category failed: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}
